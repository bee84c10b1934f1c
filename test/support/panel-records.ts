/**
 * Hand-built FHIR Bundles for the Panel's scenarios in the current calendar year (the official decks
 * are all in 2025): a diabetic adult with a qualifying visit, and the results the scenario needs.
 * Codes are the decks' own, so they are in the measures' value sets.
 */
const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const LAB = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] };

export interface PanelPatientInput {
  id: string;
  given: string;
  family: string;
  birthDate: string;
  gender?: 'male' | 'female';
  /** An HbA1c result recorded a few minutes ago, in `unit` (UCUM), under `loinc` (default 4548-4, NGSP %; 59261-8 is IFCC mmol/mol). */
  hba1c?: { value: number; unit: string; loinc?: string };
  /** Earlier HbA1c results (ISO dates), for the history the evidence plots. */
  earlierHba1c?: { value: number; unit: string; at: string }[];
  /** When the diabetes began (ISO date; default the first of January this year). */
  diabetesSince?: string;
  /** Earlier qualifying visits (ISO dates), besides the one a few minutes ago. */
  earlierVisits?: string[];
}

/** A few minutes ago: inside the current year and never in the future. */
export const recently = () => new Date(Date.now() - 5 * 60_000).toISOString();
export const thisYear = () => new Date().getUTCFullYear();

export function panelPatientBundle(p: PanelPatientInput) {
  const at = recently();
  const ref = { reference: `Patient/${p.id}` };
  const resources: Record<string, unknown>[] = [
    {
      resourceType: 'Patient',
      id: p.id,
      name: [{ family: p.family, given: [p.given] }],
      gender: p.gender ?? 'female',
      birthDate: p.birthDate,
    },
    {
      resourceType: 'Condition',
      id: `${p.id}-diabetes`,
      subject: ref,
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      code: {
        coding: [{ system: SNOMED, code: '102781000119107', display: 'Sensory neuropathy due to type 1 diabetes mellitus (disorder)' }],
      },
      onsetDateTime: p.diabetesSince ?? `${thisYear()}-01-01T00:00:00.000Z`,
    },
    {
      resourceType: 'Encounter',
      id: `${p.id}-visit`,
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
      subject: ref,
      type: [{ coding: [{ system: SNOMED, code: '185460008', display: 'Home visit request by patient (procedure)' }] }],
      period: { start: at, end: at },
    },
  ];
  for (const [i, when] of (p.earlierVisits ?? []).entries())
    resources.push({
      resourceType: 'Encounter',
      id: `${p.id}-visit-earlier-${i + 1}`,
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
      subject: ref,
      type: [{ coding: [{ system: SNOMED, code: '185460008', display: 'Home visit request by patient (procedure)' }] }],
      period: { start: when, end: when },
    });
  if (p.hba1c)
    resources.push({
      resourceType: 'Observation',
      id: `${p.id}-hba1c`,
      status: 'final',
      category: [LAB],
      subject: ref,
      code: {
        coding: [
          p.hba1c.loinc === '59261-8'
            ? { system: LOINC, code: '59261-8', display: 'Hemoglobin A1c/Hemoglobin.total in Blood by IFCC protocol' }
            : { system: LOINC, code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood' },
        ],
      },
      effectiveDateTime: at,
      valueQuantity: { value: p.hba1c.value, unit: p.hba1c.unit, system: 'http://unitsofmeasure.org', code: p.hba1c.unit },
    });
  for (const [i, e] of (p.earlierHba1c ?? []).entries())
    resources.push({
      resourceType: 'Observation',
      id: `${p.id}-hba1c-earlier-${i + 1}`,
      status: 'final',
      category: [LAB],
      subject: ref,
      code: { coding: [{ system: LOINC, code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood' }] },
      effectiveDateTime: e.at,
      valueQuantity: { value: e.value, unit: e.unit, system: 'http://unitsofmeasure.org', code: e.unit },
    });
  return {
    resourceType: 'Bundle',
    type: 'batch',
    entry: resources.map((resource) => ({
      resource,
      request: { method: 'PUT', url: `${String(resource.resourceType)}/${String(resource.id)}` },
    })),
  };
}
