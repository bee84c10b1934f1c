import { toParameterUnit, type UnitConversion } from '@cds/engine';
import { DIABETES_TEMPLATES } from './diabetes-templates';

// Every cut-point a template's guideline publishes in two units (ADA: 3.9 mmol/L = 70 mg/dL, 11.1 =
// 200; KDIGO: 3 mg/mmol = 30 mg/g) converts exactly onto its counterpart, and a value just below it in
// the other unit stays below: no hypoglycaemia or diagnosis falls on the wrong side through rounding.
const pairs = DIABETES_TEMPLATES.flatMap((t) =>
  ((t.validation_rules.units_accepted ?? []) as UnitConversion[]).flatMap((c) =>
    (c.equivalents ?? []).map(([from, to]) => [`${t.name}: ${from} ${c.code} = ${to} ${t.units}`, c, from, to] as const),
  ),
);

describe('template cut-points land on their counterparts', () => {
  it('the random glucose template carries the hypoglycaemia levels in mmol/L', () => {
    expect(pairs.map(([name]) => name)).toEqual(
      expect.arrayContaining(['random_glucose: 3 mmol/L = 54 mg/dL', 'random_glucose: 3.9 mmol/L = 70 mg/dL']),
    );
  });

  it.each(pairs)('%s', (_name, conversion, from, to) => {
    expect(toParameterUnit(from, conversion)).toBeCloseTo(to, 9);
    expect(toParameterUnit(from - 0.01, conversion)).toBeLessThan(to);
    expect(toParameterUnit(from + 0.01, conversion)).toBeGreaterThan(to);
  });
});
