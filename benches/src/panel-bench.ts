import { seededRandom } from '@cds/engine';
import { loadConfig } from '@cds/backend/dist/config/app-config';
import { MeasuresService, TREND_MAX_PATIENTS } from '@cds/backend/dist/modules/measures/measures.service';
import { RecordsRepository, type RecordRow } from '@cds/backend/dist/modules/records/records.repository';
import { startRuntime } from '@cds/backend/dist/runtime';
import { scratchDatabase } from './bench-scratch';

/**
 * A clinic's whole panel (issue 21, deliverable 7): N generated patients with realistic records
 * (visits, diagnoses, A1C, blood pressures, kidney tests, the odd hospice or frailty entry; 10-20
 * resources each) stored in a scratch database, then the three measures evaluated for the panel from
 * the database in one pass. Import (bulk rows, no FHIR validation) and evaluation are timed apart.
 */
export const PERIOD = { start: '2025-01-01', end: '2025-12-31' };
const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';
const CPT = 'http://www.ama-assn.org/go/cpt';
const LOINC = 'http://loinc.org';
const LAB = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] };
const VITALS = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] };

function day(rnd: () => number, from = '2024-06-01', days = 560): string {
  return new Date(Date.parse(from) + Math.floor(rnd() * days) * 86_400_000 + 9 * 3_600_000).toISOString();
}

/** One patient's record: Patient, visits, problems and results, as an EHR would export them. */
function patientRecord(i: number, rnd: () => number): RecordRow[] {
  const id = `panel-${i}`;
  const subject = { reference: `Patient/${id}` };
  const rows: RecordRow[] = [];
  const add = (resource: Record<string, unknown>) =>
    rows.push({ resource_type: String(resource.resourceType), id: String(resource.id), patient_id: id, resource });
  const birthYear = 1935 + Math.floor(rnd() * 70);
  add({ resourceType: 'Patient', id, gender: rnd() < 0.5 ? 'female' : 'male', birthDate: `${birthYear}-0${1 + Math.floor(rnd() * 9)}-15` });
  const visits = 1 + Math.floor(rnd() * 4);
  for (let v = 0; v < visits; v++) {
    const start = day(rnd);
    add({
      resourceType: 'Encounter',
      id: `${id}-enc-${v}`,
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
      type: [{ coding: [{ system: CPT, code: '99213' }] }],
      subject,
      period: { start, end: new Date(Date.parse(start) + 1_800_000).toISOString() },
    });
  }
  const problem = (n: number, code: string, onset: string) =>
    add({
      resourceType: 'Condition',
      id: `${id}-cond-${n}`,
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      code: { coding: [{ system: ICD10, code }] },
      subject,
      onsetDateTime: onset,
    });
  if (rnd() < 0.6) problem(1, 'E11.9', day(rnd, '2010-01-01', 5000));
  if (rnd() < 0.5) problem(2, 'I10', day(rnd, '2010-01-01', 5000));
  if (rnd() < 0.03) problem(3, 'L89.000', day(rnd));
  const result = (n: number, code: string, value: number, unit: string) =>
    add({
      resourceType: 'Observation',
      id: `${id}-obs-${n}`,
      status: 'final',
      category: [LAB],
      code: { coding: [{ system: LOINC, code }] },
      subject,
      effectiveDateTime: day(rnd),
      valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
    });
  let n = 0;
  for (let k = Math.floor(rnd() * 4); k > 0; k--) result(n++, '4548-4', Math.round((5 + rnd() * 7) * 10) / 10, '%');
  if (rnd() < 0.7) result(n++, '48642-3', Math.round(20 + rnd() * 90), 'mL/min/{1.73_m2}');
  if (rnd() < 0.5) result(n, '13705-9', Math.round(rnd() * 400), 'mg/g');
  for (let k = Math.floor(rnd() * 4); k > 0; k--)
    add({
      resourceType: 'Observation',
      id: `${id}-bp-${k}`,
      status: 'final',
      category: [VITALS],
      code: { coding: [{ system: LOINC, code: '85354-9' }] },
      subject,
      effectiveDateTime: day(rnd),
      component: [
        { code: { coding: [{ system: LOINC, code: '8480-6' }] }, valueQuantity: { value: Math.round(105 + rnd() * 70), unit: 'mm[Hg]' } },
        { code: { coding: [{ system: LOINC, code: '8462-4' }] }, valueQuantity: { value: Math.round(60 + rnd() * 45), unit: 'mm[Hg]' } },
      ],
    });
  return rows;
}

/** Stores `patients` generated patients (always the same ones: a fixed seed) as bulk rows; returns the resources stored. */
export async function storePanel(records: RecordsRepository, patients: number): Promise<number> {
  const rnd = seededRandom(20251231);
  let resources = 0;
  let batch: RecordRow[] = [];
  for (let i = 0; i < patients; i++) {
    batch.push(...patientRecord(i, rnd));
    if (batch.length >= 5000 || i === patients - 1) {
      resources += batch.length;
      await records.upsert(batch);
      batch = [];
    }
  }
  return resources;
}

export async function runPanelBench(patients: number, fmt: (n: number, digits?: number) => string): Promise<void> {
  const scratch = await scratchDatabase('panel');
  const runtime = await startRuntime(loadConfig(scratch.env), { listen: false });
  try {
    const records = runtime.app.get(RecordsRepository);
    const measures = runtime.app.get(MeasuresService);
    const importStart = Date.now();
    const resources = await storePanel(records, patients);
    const importS = (Date.now() - importStart) / 1000;
    const size = (await scratch.admin.query(`SELECT pg_database_size($1) AS b`, [scratch.name])).rows[0].b as string;
    console.log(`\n### A panel of ${patients.toLocaleString('en-US')} patients\n`);
    console.log(
      `Import: ${resources.toLocaleString('en-US')} resources in ${fmt(importS)} s (${fmt(resources / importS, 0)} resources/s, bulk rows in batches of 5,000; database ${fmt(Number(size) / 1e9, 2)} GB).`,
    );
    // Reading alone (the same slices the evaluation reads), to see where the evaluation's time goes.
    const readStart = Date.now();
    const all = await records.patientIds();
    for (let i = 0; i < all.length; i += 500) await records.recordsOf(all.slice(i, i + 500));
    console.log(`Reading every patient's record in slices of 500, nothing evaluated: ${fmt((Date.now() - readStart) / 1000)} s.`);
    const ids = [
      'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
      'KidneyHealthEvaluationFHIR',
      'ControllingHighBloodPressureFHIR',
    ];
    const rssBefore = process.memoryUsage().rss;
    const start = Date.now();
    const reports = await measures.panelSummaries(ids, PERIOD);
    const evalS = (Date.now() - start) / 1000;
    console.log(
      `Evaluation of the three measures over the panel from the database, one pass: ${fmt(evalS)} s (${fmt((evalS * 1e6) / patients, 0)} µs per patient); RSS ${fmt(rssBefore / 1e6, 0)} → ${fmt(process.memoryUsage().rss / 1e6, 0)} MB.\n`,
    );
    // The Panel's plots: its own page load (one period, with the HbA1c distribution), then the 12-month trend. The
    // first load of each finds nothing stored (every patient evaluated, the results stored); the second reads the
    // stored results, all current (what a PCP gets after a measure run, or after anyone's earlier load).
    const timed = async (f: () => Promise<unknown>) => {
      const t0 = Date.now();
      await f();
      return (Date.now() - t0) / 1000;
    };
    const pageS = await timed(() => measures.panel(PERIOD));
    console.log(
      `GET /api/panel (one period, gap list and HbA1c distribution), nothing stored: ${fmt(pageS)} s (every patient evaluated, results stored).`,
    );
    const storedS = await timed(() => measures.panel(PERIOD));
    console.log(
      `GET /api/panel again, every stored result current: ${fmt(storedS)} s (${fmt(pageS / storedS, 1)} × faster; nobody evaluated).`,
    );
    const today = new Date(`${PERIOD.end}T12:00:00Z`);
    if (patients <= TREND_MAX_PATIENTS) {
      const trendS = await timed(() => measures.panelTrend(today));
      console.log(
        `GET /api/panel/trend (12 rolling years, each record read once), nothing stored: ${fmt(trendS)} s (${fmt((trendS * 1e6) / patients, 0)} µs per patient, ${fmt(trendS / pageS, 1)} × the page).`,
      );
      const trendStoredS = await timed(() => measures.panelTrend(today));
      console.log(
        `GET /api/panel/trend again, from the stored results: ${fmt(trendStoredS)} s (${fmt(trendS / trendStoredS, 1)} × faster).\n`,
      );
    } else
      console.log(
        `GET /api/panel/trend: above ${TREND_MAX_PATIENTS} patients, read only from a measure run's stored results (409 before one).\n`,
      );
    console.log('| measure | initial population | denominator | exclusions | numerator | score |');
    console.log('|---|---:|---:|---:|---:|---:|');
    reports.forEach((r, i) => {
      const group = (
        r.group as { population: { code: { coding: { code: string }[] }; count: number }[]; measureScore?: { value: number } }[]
      )[0];
      const c = Object.fromEntries(group.population.map((p) => [p.code.coding[0].code, p.count]));
      console.log(
        `| ${ids[i]} | ${c['initial-population']} | ${c.denominator} | ${c['denominator-exclusion']} | ${c.numerator} | ${group.measureScore ? fmt(group.measureScore.value * 100, 1) + ' %' : '—'} |`,
      );
    });
  } finally {
    await runtime.close();
    await scratch.drop();
  }
}
