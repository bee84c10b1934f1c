import { analyzeRuleSet } from './analysis';
import { ANTIBODIES, aRule, cond, DIABETES_TYPE, GLUCOSE, HBA1C, LAST_EYE_EXAM } from './testing/builders';
import type { EngineRule, Finding } from './types';

const PARAMETERS = [HBA1C, GLUCOSE, ANTIBODIES, DIABETES_TYPE, LAST_EYE_EXAM];
const about = (rule: EngineRule, code: Finding['code']): Finding[] =>
  analyzeRuleSet([rule], PARAMETERS).filter((f) => f.code === code && f.rule_ids.includes(rule.id));

describe('analyzeRuleSet: rules that can never fire', () => {
  it('explains a contradiction in clinical words', () => {
    const rule = aRule('X', [cond(HBA1C.id, '>', 7), cond(HBA1C.id, '<', 6)]);
    expect(about(rule, 'unsatisfiable_rule')).toEqual([
      {
        code: 'unsatisfiable_rule',
        severity: 'error',
        rule_ids: [rule.id],
        parameter_id: HBA1C.id,
        message: 'Rule "X" can never fire: HbA1c cannot be both above 7 and below 6.',
      },
    ]);
  });

  it.each<[string, [string, unknown][]]>([
    [
      'touching strict bounds',
      [
        ['>', 7],
        ['<', 7],
      ],
    ],
    [
      'a strict and an inclusive bound',
      [
        ['>=', 7],
        ['<', 7],
      ],
    ],
    [
      'two different exact values',
      [
        ['==', 5],
        ['==', 6],
      ],
    ],
    [
      'exact value outside a bound',
      [
        ['==', 5],
        ['>', 6],
      ],
    ],
    [
      'a value and its negation',
      [
        ['==', 6.5],
        ['!=', 6.5],
      ],
    ],
    [
      'a single point that is excluded',
      [
        ['>=', 6.5],
        ['<=', 6.5],
        ['!=', 6.5],
      ],
    ],
  ])('finds %s on a number', (_label, pairs) => {
    const rule = aRule(
      'R',
      pairs.map(([op, value]) => cond(HBA1C.id, op, value)),
    );
    // Range answers cannot rescue these except two equal-to values (reported as a warning below).
    const findings = about(rule, 'unsatisfiable_rule');
    expect(findings).toHaveLength(1);
    expect(findings[0].severity).toBe(pairs[0][0] === '==' && pairs[1][0] === '==' ? 'warning' : 'error');
  });

  it('says a rule needing two exact values can only fire for a range answer', () => {
    const rule = aRule('Both', [cond(HBA1C.id, '==', 5), cond(HBA1C.id, '==', 6)]);
    expect(about(rule, 'unsatisfiable_rule')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message:
          'Rule "Both" can only fire when the answer is given as a range: HbA1c cannot be both exactly 5 and exactly 6 as a single value.',
      }),
    ]);
  });

  it('finds contradictions on yes/no, choices and dates', () => {
    expect(
      about(aRule('B', [cond(ANTIBODIES.id, 'equals', true), cond(ANTIBODIES.id, 'equals', false)]), 'unsatisfiable_rule')[0].message,
    ).toBe('Rule "B" can never fire: Thyroid Antibodies cannot be both true and false.');
    expect(
      about(aRule('C', [cond(DIABETES_TYPE.id, 'equals', 'Type 1'), cond(DIABETES_TYPE.id, 'equals', 'Type 2')]), 'unsatisfiable_rule')[0]
        .message,
    ).toBe('Rule "C" can never fire: Diabetes Type cannot be both "Type 1" and "Type 2".');
    expect(
      about(
        aRule('D', [cond(LAST_EYE_EXAM.id, 'after', '2024-01-01'), cond(LAST_EYE_EXAM.id, 'before', '2024-01-02')]),
        'unsatisfiable_rule',
      )[0].message,
    ).toBe('Rule "D" can never fire: Last Eye Exam cannot be both after 2024-01-01 and before 2024-01-02.');
  });

  it('does not flag conditions that some answer satisfies', () => {
    const fine = [
      aRule('Band', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)]),
      aRule('Point', [cond(HBA1C.id, '>=', 6.5), cond(HBA1C.id, '<=', 6.5)]),
      aRule('Different parameters', [cond(HBA1C.id, '>', 7), cond(GLUCOSE.id, '<', 6)]),
      aRule('Dates two days apart', [cond(LAST_EYE_EXAM.id, 'after', '2024-01-01'), cond(LAST_EYE_EXAM.id, 'before', '2024-01-03')]),
      aRule('Not both', [cond(ANTIBODIES.id, 'not_equals', true), cond(ANTIBODIES.id, 'equals', false)]),
    ];
    expect(analyzeRuleSet(fine, PARAMETERS).filter((f) => f.code.includes('unsatisfiable'))).toEqual([]);
  });

  it('warns when only one OR branch can never match', () => {
    const rule = aRule('Partly', [cond(HBA1C.id, '>', 7), cond(HBA1C.id, '<', 6, 'OR'), cond(GLUCOSE.id, '>', 126)]);
    expect(about(rule, 'partly_unsatisfiable_rule')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: 'Part of rule "Partly" can never match: HbA1c cannot be both above 7 and below 6.',
      }),
    ]);
    expect(about(rule, 'unsatisfiable_rule')).toEqual([]);
  });

  it('reports a rule with no conditions', () => {
    const rule = aRule('Empty', []);
    expect(about(rule, 'no_conditions')).toEqual([
      { code: 'no_conditions', severity: 'error', rule_ids: [rule.id], message: 'Rule "Empty" has no conditions, so it can never fire.' },
    ]);
  });
});
