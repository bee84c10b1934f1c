import { criterionProblems } from './validate';

describe('a stored criterion is checked before it is used', () => {
  it('a well-formed criterion has no problem', () => {
    expect(
      criterionProblems({
        resource_type: 'Observation',
        codes: ['http://loinc.org|4548-4'],
        window: { anchor: 'now', days: 365 },
        take: 'distinct_days',
        where: { operator: '>=', value: 6.5 },
      }),
    ).toEqual([]);
    expect(criterionProblems({ resource_type: 'Patient', take: 'age', window: { anchor: 'period' } })).toEqual([]);
  });

  it.each([
    ['not an object', 'x', 'criterion'],
    ['an unknown resource type', { resource_type: 'Claim', codes: ['a|b'], take: 'exists' }, 'criterion.resource_type'],
    ['an unknown take', { resource_type: 'Observation', codes: ['a|b'], take: 'average' }, 'criterion.take'],
    ['no codes and no value set', { resource_type: 'Observation', take: 'exists' }, 'criterion'],
    ['a code without its system', { resource_type: 'Observation', codes: ['4548-4'], take: 'exists' }, 'criterion.codes'],
    ['age of an Observation', { resource_type: 'Observation', codes: ['a|b'], take: 'age' }, 'criterion.take'],
    ['the value of an Encounter', { resource_type: 'Encounter', codes: ['a|b'], take: 'latest' }, 'criterion.take'],
    [
      'a window of -3 days',
      { resource_type: 'Observation', codes: ['a|b'], take: 'exists', window: { anchor: 'now', days: -3 } },
      'criterion.window.days',
    ],
    [
      'years before now',
      { resource_type: 'Observation', codes: ['a|b'], take: 'exists', window: { anchor: 'now', years_before: 1 } },
      'criterion.window.years_before',
    ],
    [
      'a filter without a number',
      { resource_type: 'Observation', codes: ['a|b'], take: 'count', where: { operator: '>=', value: '6.5' } },
      'criterion.where',
    ],
    ['persistence of nothing', { resource_type: 'Observation', codes: ['a|b'], take: 'days_persisting' }, 'criterion.where'],
    ['an unknown field', { resource_type: 'Observation', codes: ['a|b'], take: 'exists', colour: 'blue' }, 'criterion.colour'],
    [
      'intents on an Observation',
      { resource_type: 'Observation', codes: ['a|b'], take: 'exists', intents: ['order'] },
      'criterion.intents',
    ],
    ['latest_is without the code', { resource_type: 'Observation', codes: ['a|b'], take: 'latest_is' }, 'criterion.has_code'],
    [
      'a discharge disposition on an Observation',
      { resource_type: 'Observation', codes: ['a|b'], take: 'exists', has_code: { element: 'discharge_disposition', codes: ['a|b'] } },
      'criterion.has_code.element',
    ],
    [
      'an unknown relation',
      { resource_type: 'Encounter', codes: ['a|b'], take: 'exists', window: { anchor: 'period', relation: 'near' } },
      'criterion.window.relation',
    ],
  ])('%s is named', (_name, value, field) => {
    expect(criterionProblems(value).map((p) => p.field)).toContain(field);
  });
});
