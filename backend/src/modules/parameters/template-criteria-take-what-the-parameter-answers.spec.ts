import { criterionFitProblems, type CriterionSpec } from '@cds/engine';
import { DIABETES_TEMPLATES } from './diabetes-templates';

// The server refuses a criterion whose take is not the parameter's answer: every shipped template must pass it.
describe('template criteria take what the parameter answers', () => {
  it.each(DIABETES_TEMPLATES.filter((t) => (t.validation_rules as { criterion?: unknown }).criterion).map((t) => [t.name, t] as const))(
    '%s',
    (_name, t) => {
      const criterion = (t.validation_rules as { criterion: CriterionSpec }).criterion;
      expect(criterionFitProblems(criterion, t.data_type)).toEqual([]);
    },
  );
});
