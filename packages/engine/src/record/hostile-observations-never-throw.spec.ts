import fc from 'fast-check';
import { inParameterUnit, readHistory, type ParameterScale } from './observations';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const SCALE: ParameterScale = {
  unit: '%',
  min: 3,
  max: 20,
  conversions: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152, equivalents: [[48, 6.5]] }],
};

/** Observation-shaped JSON with every field possibly wrong: what an EHR may send. */
const hostile = fc.record(
  {
    resourceType: fc.constantFrom('Observation', 'Patient', 1, null),
    id: fc.oneof(fc.string(), fc.integer()),
    status: fc.oneof(fc.constantFrom('final', 'amended', 'corrected', 'preliminary', 'entered-in-error'), fc.anything()),
    code: fc.oneof(
      fc.constant({ coding: [{ system: 'http://loinc.org', code: '4548-4' }] }),
      fc.record({ coding: fc.array(fc.record({ system: fc.anything(), code: fc.anything() }, { requiredKeys: [] })) }),
      fc.anything(),
    ),
    effectiveDateTime: fc.oneof(
      fc.constantFrom('2026-11-01', '2030-01-01T00:00:00Z', 'yesterday', '+275760-09-13T00:00:00Z'),
      fc.anything(),
    ),
    effectivePeriod: fc.anything(),
    valueQuantity: fc.oneof(
      fc.record(
        {
          value: fc.oneof(fc.double(), fc.integer(), fc.string()),
          comparator: fc.oneof(fc.constantFrom('<', '<=', '>=', '>', '~'), fc.anything()),
          unit: fc.oneof(fc.constantFrom('%', 'mmol/mol', 'mg/dL'), fc.anything()),
          code: fc.oneof(fc.constantFrom('%', 'mmol/mol', 'mmHg'), fc.anything()),
          system: fc.oneof(fc.constant('http://unitsofmeasure.org'), fc.anything()),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    ),
    component: fc.anything(),
  },
  { requiredKeys: [] },
);

describe('hostile Observations are read or set aside, never thrown on (a hook call must not 500)', () => {
  it('property: any JSON in, dated results out, each either in the parameter unit within its limits or a stated problem', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(hostile, fc.anything()), { maxLength: 8 }), (resources) => {
        const h = readHistory(resources, ['4548-4', '59261-8'], NOW);
        for (const r of h.results) {
          expect(r.at).toBeLessThanOrEqual(NOW + 5 * 60_000);
          const read = inParameterUnit(r, SCALE);
          if ('problem' in read) expect(read.problem).toEqual(expect.any(String));
          else if (typeof read.value === 'number') expect(read.value >= 3 && read.value <= 20).toBe(true);
        }
        for (const r of h.future) expect(r.at).toBeGreaterThan(NOW);
      }),
      { numRuns: 300 },
    );
  });
});
