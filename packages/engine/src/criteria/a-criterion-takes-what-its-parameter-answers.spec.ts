import { criterionFitProblems, takesFor } from './fit';
import type { Criterion } from './types';

// A criterion's take is the parameter's answer: a count cannot answer "diabetes diagnosed?", and "any
// A1C in 3 years" cannot answer "latest A1C (%)".
const a1c = (take: Criterion['take']): Criterion => ({ resource_type: 'Observation', codes: ['http://loinc.org|4548-4'], take });

describe('a criterion takes what its parameter answers', () => {
  it('a numeric parameter takes a value, a count or days; a yes/no parameter takes whether', () => {
    expect(takesFor('Observation', 'number')).toEqual(['latest', 'lowest_on_latest_day', 'count', 'distinct_days', 'days_persisting']);
    expect(takesFor('Observation', 'boolean')).toEqual(['latest_is', 'latest_without_value', 'exists']);
  });

  it('a diagnosis has no value: neither the latest value nor days persisting is offered on a Condition', () => {
    expect(takesFor('Condition', 'lab_range')).toEqual(['count', 'distinct_days']);
    expect(takesFor('Condition', 'boolean')).toEqual(['exists']);
  });

  it('the Patient gives an age, to a numeric parameter only', () => {
    expect(takesFor('Patient', 'number')).toEqual(['age']);
    expect(takesFor('Patient', 'boolean')).toEqual([]);
  });

  it('a count on a yes/no parameter is refused at the take, naming what fits', () => {
    expect(criterionFitProblems(a1c('count'), 'boolean', 'validation_rules.criterion')).toEqual([
      {
        field: 'validation_rules.criterion.take',
        message: "count answers a number, but the parameter's answer is yes or no: take one of exists, latest_is, latest_without_value",
      },
    ]);
  });

  it('whether there is one, on a numeric parameter, is refused too', () => {
    expect(criterionFitProblems(a1c('exists'), 'number')[0].message).toMatch(
      /^exists answers yes or no, but the parameter's answer is a number/,
    );
  });

  it('any_of answers yes or no', () => {
    const spec = { any_of: [a1c('exists')] };
    expect(criterionFitProblems(spec, 'boolean')).toEqual([]);
    expect(criterionFitProblems(spec, 'number')[0].field).toBe('criterion.any_of');
  });

  it('a text, a choice or a date is not read from the record', () => {
    for (const type of ['text', 'select', 'date'])
      expect(criterionFitProblems(a1c('latest'), type)[0].message).toMatch(/only numbers and yes\/no answers/);
  });

  it('fitting criteria pass', () => {
    expect(criterionFitProblems(a1c('latest'), 'lab_range')).toEqual([]);
    expect(criterionFitProblems({ resource_type: 'Patient', take: 'age' }, 'number')).toEqual([]);
  });
});
