/** Test-data builders for records: plain FHIR R4 JSON as an EHR sends it. */

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const UCUM = 'http://unitsofmeasure.org';

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${++sequence}`;

export function aPatient(birthDate: string, id = 'p1') {
  return { resourceType: 'Patient', id, birthDate };
}

/** An Observation of one LOINC code: `value` with `unit` (UCUM), at `when`; `extra` overrides any field. */
export function anObservation(code: string, value: number | null, unit: string, when: string, extra: Record<string, unknown> = {}) {
  return {
    resourceType: 'Observation',
    id: nextId('obs'),
    status: 'final',
    code: { coding: [{ system: LOINC, code }] },
    subject: { reference: 'Patient/p1' },
    effectiveDateTime: when,
    ...(value === null ? {} : { valueQuantity: { value, unit, system: UCUM, code: unit } }),
    ...extra,
  };
}

export function anEncounter(code: string, start: string, end: string, extra: Record<string, unknown> = {}) {
  return {
    resourceType: 'Encounter',
    id: nextId('enc'),
    status: 'finished',
    class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
    type: [{ coding: [{ system: SNOMED, code }] }],
    subject: { reference: 'Patient/p1' },
    period: { start, end },
    ...extra,
  };
}

export function aCondition(code: string, onset: string, clinicalStatus: string, extra: Record<string, unknown> = {}) {
  return {
    resourceType: 'Condition',
    id: nextId('cond'),
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: clinicalStatus }] },
    code: { coding: [{ system: SNOMED, code }] },
    subject: { reference: 'Patient/p1' },
    onsetDateTime: onset,
    ...extra,
  };
}
