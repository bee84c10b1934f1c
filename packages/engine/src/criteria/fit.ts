import { typeClassOf } from '../operators';
import { BOOLEAN_TAKES, isAnyOf, type CriterionSpec } from './any-of';
import { CRITERION_TAKES, type CriterionResourceType, type CriterionTake } from './types';
import type { CriterionProblem } from './validate';

/**
 * Whether what a criterion takes can be its parameter's answer. A numeric parameter gets a number (a
 * value in its unit, a count, days, an age); a yes/no parameter gets yes or no. No other data type is
 * read from the record: a text, a choice or a date has no take that gives it.
 */

/** Takes that answer a number. */
export const NUMBER_TAKES: readonly CriterionTake[] = [
  'latest',
  'lowest_on_latest_day',
  'count',
  'distinct_days',
  'days_persisting',
  'age',
];
/** Takes that read an Observation's value or code. */
const OBSERVATION_TAKES: ReadonlySet<string> = new Set([
  'latest',
  'lowest_on_latest_day',
  'days_persisting',
  'latest_is',
  'latest_without_value',
]);

function fittingTakes(dataType: unknown): readonly string[] {
  const kind = typeClassOf(dataType);
  return kind === 'numeric' ? NUMBER_TAKES : kind === 'boolean' ? BOOLEAN_TAKES : [];
}

/** The takes that make sense on a resource type for a parameter of this data type, in the engine's order. */
export function takesFor(resourceType: CriterionResourceType, dataType: unknown): CriterionTake[] {
  const fits = fittingTakes(dataType);
  return CRITERION_TAKES.filter(
    (t) =>
      fits.includes(t) &&
      (resourceType === 'Patient' ? t === 'age' : t !== 'age' && (resourceType === 'Observation' || !OBSERVATION_TAKES.has(t))),
  );
}

const TYPE_WORDS: Readonly<Record<string, string>> = { numeric: 'a number', boolean: 'yes or no' };

/** Problems with a (well-formed) criterion on a parameter of `dataType`: an empty list when its take gives that type's answer. */
export function criterionFitProblems(spec: CriterionSpec, dataType: unknown, field = 'criterion'): CriterionProblem[] {
  const kind = typeClassOf(dataType);
  const fits = fittingTakes(dataType);
  if (!fits.length)
    return [
      {
        field,
        message: `cannot be set on a parameter of type ${String(dataType)}: only numbers and yes/no answers are read from the record`,
      },
    ];
  if (isAnyOf(spec))
    return kind === 'boolean'
      ? []
      : [{ field: `${field}.any_of`, message: `answers yes or no, but the parameter's answer is ${TYPE_WORDS[kind]}` }];
  if (fits.includes(spec.take)) return [];
  return [
    {
      field: `${field}.take`,
      message: `${spec.take} answers ${kind === 'boolean' ? 'a number' : 'yes or no'}, but the parameter's answer is ${TYPE_WORDS[kind]}: take one of ${fits.join(', ')}`,
    },
  ];
}
