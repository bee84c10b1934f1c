import { analyzeRuleSet } from './analysis';
import { ANTIBODIES, anAction, aRule, cond, GLUCOSE, HBA1C, TSH } from './testing/builders';
import type { Finding } from './types';

const PARAMETERS = [HBA1C, GLUCOSE, TSH, ANTIBODIES];
const codes = (findings: Finding[], code: Finding['code']): Finding[] => findings.filter((f) => f.code === code);

describe('analyzeRuleSet: duplicates', () => {
  it('finds rules with the same conditions, written in any order or spelling', () => {
    const actions = [anAction('Start metformin')];
    const a = aRule('A', [cond(HBA1C.id, '>', 7), cond(GLUCOSE.id, '>=', 126)], { actions });
    const b = aRule('B', [cond(GLUCOSE.id, 'greater_equal', '126'), cond('HbA1c', 'greater_than', 7)], { actions });
    expect(codes(analyzeRuleSet([b, a], PARAMETERS), 'duplicate_rule')).toEqual([
      {
        code: 'duplicate_rule',
        severity: 'warning',
        rule_ids: [a.id, b.id],
        message: 'Rules "A" and "B" are duplicates: same conditions and same actions.',
      },
    ]);
  });

  it('says when duplicates give different advice, since only one is ever recommended', () => {
    const a = aRule('A', [cond(HBA1C.id, '>', 7)], { actions: [anAction('Start metformin')] });
    const b = aRule('B', [cond(HBA1C.id, '>', 7)], { actions: [anAction('Lifestyle only')] });
    expect(codes(analyzeRuleSet([a, b], PARAMETERS), 'duplicate_rule')[0].message).toBe(
      'Rules "A" and "B" have the same conditions but different actions: they always fire together, and "A" is shown first.',
    );
  });

  it('does not call rules duplicates when a threshold differs', () => {
    const findings = analyzeRuleSet([aRule('A', [cond(HBA1C.id, '>', 7)]), aRule('B', [cond(HBA1C.id, '>', 7.5)])], PARAMETERS);
    expect(codes(findings, 'duplicate_rule')).toEqual([]);
  });
});

describe('analyzeRuleSet: rules shadowed by a rule checked before them', () => {
  it('finds a rule that can only match when a rule ranked above it matches too', () => {
    const broad = aRule('Broad', [cond(HBA1C.id, '>', 6.5), cond(GLUCOSE.id, '>', 100)]);
    const narrow = aRule('Narrow', [cond(HBA1C.id, '>=', 8), cond(GLUCOSE.id, '>', 126)]);
    expect(codes(analyzeRuleSet([narrow, broad], PARAMETERS), 'shadowed_rule')).toEqual([
      {
        code: 'shadowed_rule',
        severity: 'warning',
        rule_ids: [broad.id, narrow.id],
        message: 'Rule "Narrow" is never the primary recommendation: whenever it fires, "Broad", which ranks above it, fires too.',
      },
    ]);
  });

  it('respects strict bounds: "> 7" does not cover ">= 7", whose 7 it misses', () => {
    const strict = aRule('A strict', [cond(HBA1C.id, '>', 7)]);
    const inclusive = aRule('B inclusive', [cond(HBA1C.id, '>=', 7)]);
    const stricter = aRule('C stricter', [cond(HBA1C.id, '>', 7.5)]);
    const findings = codes(analyzeRuleSet([strict, inclusive, stricter], PARAMETERS), 'shadowed_rule');
    expect(findings.map((f) => f.rule_ids)).toEqual([[strict.id, stricter.id]]);
  });

  it('does not flag a more specific rule ranked above a broader one (the intended pattern)', () => {
    const specific = aRule("Hashimoto's", [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true)]);
    const broad = aRule('Subclinical', [cond(TSH.id, '>', 4.5)]);
    expect(codes(analyzeRuleSet([broad, specific], PARAMETERS), 'shadowed_rule')).toEqual([]);
  });

  it('reasons about exact values only where range answers cannot break it', () => {
    // "== 8" does not imply "> 7" for a range answer such as 6-9, so nothing is claimed.
    const above = aRule('Above', [cond(HBA1C.id, '>', 7), cond(GLUCOSE.id, '>', 0)]);
    const exact = aRule('Exact', [cond(HBA1C.id, '==', 8), cond(GLUCOSE.id, '>', 0)]);
    expect(codes(analyzeRuleSet([above, exact], PARAMETERS), 'shadowed_rule')).toEqual([]);
  });

  it('needs every OR branch of the lower rule to be covered', () => {
    // All three have two conditions, so they rank by name: A, B, C.
    const upper = aRule('A upper', [cond(HBA1C.id, '>', 7, 'OR'), cond(HBA1C.id, '>', 100)]);
    const either = aRule('B either', [cond(HBA1C.id, '>', 8, 'OR'), cond(GLUCOSE.id, '>', 126)]);
    const both = aRule('C both', [cond(HBA1C.id, '>', 8, 'OR'), cond(HBA1C.id, '>', 9)]);
    const findings = codes(analyzeRuleSet([upper, either, both], PARAMETERS), 'shadowed_rule');
    expect(findings.map((f) => f.rule_ids)).toEqual([[upper.id, both.id]]);
  });
});
