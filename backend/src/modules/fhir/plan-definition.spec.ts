import { evalFhirPathTyped, toTypedValue } from '@medplum/core';
import type { EngineParameter } from '@cds/engine';
import { conditionPath } from './plan-definition';

/** The PlanDefinition's FHIRPath, run over a QuestionnaireResponse as any FHIR engine would. */
const A1C: EngineParameter = { id: 'a1c', name: 'hba1c', display_name: 'HbA1c', data_type: 'lab_range', units: '%' };
const HISTORY: EngineParameter = { id: 'hx', name: 'history', display_name: 'History', data_type: 'text' };
const DX: EngineParameter = { id: 'dx', name: 'diagnosed', display_name: 'Diagnosed on', data_type: 'date' };
const SMOKER: EngineParameter = { id: 'smoker', name: 'smoker', display_name: 'Smoker', data_type: 'boolean' };

function run(path: string | null, linkId: string, answer: Record<string, unknown> | null): unknown[] {
  if (path === null) throw new Error('no expression');
  const qr = toTypedValue({
    resourceType: 'QuestionnaireResponse',
    status: 'completed',
    item: answer ? [{ linkId, answer: [answer] }] : [],
  });
  return evalFhirPathTyped(path, [qr], { '%resource': qr }).map((v) => v.value);
}

const pct = (value: number, code = '%') => ({ valueQuantity: { value, system: 'http://unitsofmeasure.org', code } });

describe('conditionPath', () => {
  it('compares a quantity in the parameter unit; another unit or no answer is empty (unknown)', () => {
    const ge = conditionPath({ parameter: 'a1c', operator: '>=', value: 6.5 }, A1C);
    expect(run(ge, 'a1c', pct(6.5))).toEqual([true]);
    expect(run(ge, 'a1c', pct(6.4))).toEqual([false]);
    expect(run(ge, 'a1c', pct(48, 'mmol/mol'))).toEqual([]);
    expect(run(ge, 'a1c', null)).toEqual([]);
    expect(run(conditionPath({ parameter: 'a1c', operator: 'less_than', value: 5.7 }, A1C), 'a1c', pct(5.2))).toEqual([true]);
  });

  it('writes text, boolean and date operators', () => {
    const contains = conditionPath({ parameter: 'hx', operator: 'contains', value: "O'Brien" }, HISTORY);
    expect(run(contains, 'hx', { valueString: "seen by Dr O'Brien" })).toEqual([true]);
    // Case is ignored, as the engine's text search does.
    expect(run(contains, 'hx', { valueString: "SEEN BY DR O'BRIEN" })).toEqual([true]);
    expect(run(contains, 'hx', { valueString: 'seen by Dr Smith' })).toEqual([false]);
    expect(
      run(conditionPath({ parameter: 'hx', operator: 'starts_with', value: 'type' }, HISTORY), 'hx', { valueString: 'type 2' }),
    ).toEqual([true]);
    expect(run(conditionPath({ parameter: 'smoker', operator: 'equals', value: true }, SMOKER), 'smoker', { valueBoolean: false })).toEqual(
      [false],
    );
    expect(run(conditionPath({ parameter: 'dx', operator: 'before', value: '2020-01-01' }, DX), 'dx', { valueDate: '2019-05-01' })).toEqual(
      [true],
    );
    // Date arithmetic (FHIRPath's `today() - 30 days`) is beyond Medplum's engine, so this one is checked as written.
    expect(conditionPath({ parameter: 'dx', operator: 'within_days', value: 30 }, DX)).toBe(
      "(%resource.item.where(linkId='dx').answer.value.ofType(date) >= today() - 30 days and %resource.item.where(linkId='dx').answer.value.ofType(date) <= today() + 30 days)",
    );
  });

  it("looks a chosen option up in the engine's verdict for it: a band across the threshold stays unknown", () => {
    const system = 'https://cds.example.org/api/fhir/CodeSystem/answer-option';
    const ge = conditionPath({ parameter: 'a1c', operator: '>=', value: 6.5 }, A1C, { system, outcomes: [false, true, null, null] });
    const coding = (code: string, sys = system) => ({ valueCoding: { system: sys, code } });
    expect(run(ge, 'a1c', coding('1'))).toEqual([false]);
    expect(run(ge, 'a1c', coding('2'))).toEqual([true]);
    expect(run(ge, 'a1c', coding('3'))).toEqual([]);
    expect(run(ge, 'a1c', coding('asked-unknown', 'http://terminology.hl7.org/CodeSystem/data-absent-reason'))).toEqual([]);
    // A typed answer is still compared.
    expect(run(ge, 'a1c', pct(7))).toEqual([true]);
    const yes = conditionPath({ parameter: 'smoker', operator: 'equals', value: true }, SMOKER, { system, outcomes: [true, false, null] });
    expect(run(yes, 'smoker', coding('1'))).toEqual([true]);
    expect(run(yes, 'smoker', { valueBoolean: true })).toEqual([true]);
  });

  it('gives no expression for what it cannot write: an unknown operator or parameter, a band threshold', () => {
    expect(conditionPath({ parameter: 'a1c', operator: 'resembles', value: 6.5 }, A1C)).toBeNull();
    expect(conditionPath({ parameter: 'x', operator: '>=', value: 6.5 }, null)).toBeNull();
    expect(conditionPath({ parameter: 'a1c', operator: '>=', value: { type: 'range', min: 6, max: 7 } }, A1C)).toBeNull();
  });
});
