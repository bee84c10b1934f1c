import type { AnswerDetailJson } from '@cds/contracts';
import { prepareRuleSet, type EngineParameter, type EngineRule, type RuleFinding } from '@cds/engine';
import { repeatsAnswer } from './answer-record';
import { enteredOf, toResult } from './outcome';
import type { Knowledge } from './published-rules';

const glucose: EngineParameter = {
  id: 'fpg',
  name: 'fasting_glucose',
  display_name: 'Fasting Glucose',
  data_type: 'lab_range',
  units: 'mg/dL',
};
const rule = (id: string, source?: string): EngineRule => ({
  id,
  name: `Rule ${id}`,
  priority: 80,
  conditions: [{ parameter: 'fpg', operator: '>=', value: 126 }],
  actions: [{ type: 'alert', severity: 'high', message: 'Diagnose diabetes' }],
  rule_set_id: 'set',
  version: 3,
  ...(source ? { source } : {}),
});
const knowledge = (rules: EngineRule[], setSource: string | null): Knowledge => ({
  versions: [{ version_id: 'v3', rule_set_id: 'set', name: 'ADA 2026 Diagnosis', version: 3 }],
  rules,
  parameters: [glucose],
  prepared: prepareRuleSet(rules, [glucose]),
  parameterById: new Map([['fpg', glucose]]),
  versionOfRuleSet: new Map([['set', { version_id: 'v3', rule_set_id: 'set', name: 'ADA 2026 Diagnosis', version: 3 }]]),
  ruleById: new Map(rules.map((r) => [r.id, r])),
  sourceOfRuleSet: new Map([['set', setSource]]),
});
const finding = (id: string): RuleFinding => ({
  rule_id: id,
  rule_name: `Rule ${id}`,
  description: null,
  priority: 80,
  severity: 'high',
  actions: [{ type: 'alert', severity: 'high', message: 'Diagnose diabetes' }],
  basis: [{ parameter_id: 'fpg', parameter_name: 'fasting_glucose', operator: 'greater_equal', threshold: 126, value: 126 }],
  source: null,
});
const typed: AnswerDetailJson = {
  parameter_id: 'fpg',
  parameter_name: 'fasting_glucose',
  display_name: 'Fasting Glucose',
  units: 'mg/dL',
  value: 126,
  unit: 'mmol/L',
  entered_value: 7,
  entered_as: 'typed',
  label: '7 mmol/L (126 mg/dL)',
  observed_at: null,
  answered_at: '2026-11-23T00:00:00.000Z',
};

describe('toResult: the cards as stored and shown', () => {
  it('every finding is a card, the first is the recommendation; the basis shows the answer as entered', () => {
    const k = knowledge([rule('a'), rule('b')], null);
    const r = toResult({ findings: [finding('a'), finding('b')], undetermined_rules: [] }, k, enteredOf([typed]));
    expect(r.findings.map((f) => f.rule_id)).toEqual(['a', 'b']);
    expect(r.recommendation).toEqual(r.findings[0]);
    expect(r.findings[0]).toMatchObject({
      rule_version: 3,
      rule_set_name: 'ADA 2026 Diagnosis',
      rule_set_version_id: 'v3',
      severity: 'high',
    });
    expect(r.findings[0].basis[0]).toEqual({
      parameter_id: 'fpg',
      parameter_name: 'fasting_glucose',
      display_name: 'Fasting Glucose',
      units: 'mg/dL',
      operator: 'greater_equal',
      threshold: 126,
      value: 126,
      label: '7 mmol/L (126 mg/dL)',
      unit: 'mmol/L',
    });
  });

  it("the source is the rule's, else its rule set's, else null", () => {
    const cite = (rules: EngineRule[], setSource: string | null) =>
      toResult({ findings: [finding('a')], undetermined_rules: [] }, knowledge(rules, setSource), enteredOf([])).findings[0].source;
    expect(cite([rule('a', 'Rule citation')], 'Set citation')).toBe('Rule citation');
    expect(cite([rule('a')], 'Set citation')).toBe('Set citation');
    expect(cite([rule('a')], null)).toBeNull();
  });

  it('an undetermined rule names its missing inputs by display name, with the reason', () => {
    const k = knowledge([rule('a')], null);
    const r = toResult(
      {
        findings: [],
        undetermined_rules: [
          {
            rule_id: 'a',
            rule_name: 'Rule a',
            priority: 80,
            severity: 'high',
            unknown_parameters: [{ parameter_id: 'fpg', parameter_name: 'fasting_glucose', display_name: null, reason: 'unknown_answer' }],
          },
        ],
      },
      k,
      enteredOf([]),
    );
    expect(r.recommendation).toBeNull();
    expect(r.undetermined_rules).toEqual([
      {
        rule_id: 'a',
        rule_name: 'Rule a',
        rule_version: 3,
        rule_set_name: 'ADA 2026 Diagnosis',
        severity: 'high',
        unknown_parameters: [
          { parameter_id: 'fpg', parameter_name: 'fasting_glucose', display_name: 'Fasting Glucose', reason: 'unknown_answer' },
        ],
      },
    ]);
  });
});

describe('repeatsAnswer: a retry of the answer just stored', () => {
  it('matches the value as typed, in the unit it was typed in', () => {
    expect(repeatsAnswer(typed, { parameter_id: 'fpg', value: 7, unit: 'mmol/L' })).toBe(true);
    expect(repeatsAnswer(typed, { parameter_id: 'fpg', value: 126 })).toBe(false);
    expect(repeatsAnswer(typed, { parameter_id: 'fpg', value: 7 })).toBe(false);
    expect(repeatsAnswer(undefined, { parameter_id: 'fpg', value: 7 })).toBe(false);
  });

  it('a value typed in the parameter unit repeats with or without the unit named', () => {
    const own = { ...typed, unit: 'mg/dL', entered_value: undefined, label: '126 mg/dL' };
    expect(repeatsAnswer(own, { parameter_id: 'fpg', value: 126 })).toBe(true);
    expect(repeatsAnswer(own, { parameter_id: 'fpg', value: 126, unit: 'mg/dL' })).toBe(true);
  });
});
