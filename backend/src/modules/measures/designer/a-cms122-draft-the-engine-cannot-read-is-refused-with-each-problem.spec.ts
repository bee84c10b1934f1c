import { CMS122 } from '../cms122';
import { readDraft } from './measure-draft';

// A measure draft is evaluated over every stored patient: one the engine cannot read is refused before, naming each problem.
const ip = {
  id: 'ip',
  name: 'Adults with diabetes',
  population: 'initial-population',
  conditions: [{ parameter: 'diabetes', operator: 'equals', value: true }],
};
const problems = (body: unknown): string[] => {
  try {
    readDraft(CMS122, body, new Date('2026-11-27T00:00:00Z'));
    return [];
  } catch (e) {
    return ((e as { details?: { field: string }[] }).details ?? []).map((d) => d.field);
  }
};

it('reads a numerator cut-point of 10 % on the measure parameters, in the current calendar year by default', () => {
  const num = {
    name: 'HbA1c above 10 %',
    population: 'numerator',
    conditions: [{ parameter: 'glycemic_status_lowest', operator: 'greater_than', value: 10 }],
  };
  const draft = readDraft(CMS122, { rules: [ip, num] }, new Date('2026-11-27T00:00:00Z'));
  expect(draft.period).toEqual({ start: '2026-01-01', end: '2026-12-31' });
  expect(draft.model.populations).toEqual({ 'initial-population': ['ip'], numerator: ['draft-2'] });
  expect(draft.model.parameters).toBe(CMS122.model.parameters);
});

it('refuses a parameter the measure does not read, a cut-point in words, a population that does not exist and a repeated id', () => {
  expect(
    problems({
      rules: [
        ip,
        { id: 'ip', name: 'Again', population: 'numerator', conditions: [{ parameter: 'diabetes', operator: 'equals', value: true }] },
        { name: 'eGFR', population: 'numerator', conditions: [{ parameter: 'egfr', operator: 'less_than', value: 60 }] },
        {
          name: 'HbA1c',
          population: 'numerator',
          conditions: [{ parameter: 'glycemic_status_lowest', operator: 'greater_than', value: 'nine' }],
        },
        { name: 'Gaps', population: 'gaps', conditions: [{ parameter: 'diabetes', operator: 'equals', value: true }] },
      ],
    }),
  ).toEqual(['rules[1].id', 'rules[2].conditions[0].parameter', 'rules[3].conditions[0].value', 'rules[4].population']);
});

it('refuses a draft without an initial population, without rules, with unknown fields or half a period', () => {
  expect(problems({ rules: [{ ...ip, population: 'numerator' }] })).toEqual(['rules']);
  expect(problems({ rules: [] })).toEqual(['rules']);
  expect(problems([ip])).toEqual(['body']);
  expect(problems({ rules: [ip], publish: true })).toEqual(['publish']);
  expect(problems({ rules: [ip], periodStart: '2025-01-01' })).toEqual(['periodEnd']);
  expect(problems({ rules: [ip], periodStart: '2025-12-31', periodEnd: '2025-01-01' })).toEqual(['periodEnd']);
});
