import type { PanelJson, PanelTrendJson } from '@cds/contracts';
import { startTestApp, type TestApp } from '../support/app';
import { expectStatus } from '../support/clinical-factories';
import { createCast } from '../support/factories';
import { panelPatientBundle } from '../support/panel-records';

// Issue 21, the Panel's plots: each measure's score month by month (each point the 12 months ending
// that month) and the HbA1c distribution of CMS122's denominator, from a small panel whose every count
// is known.
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

/** The 15th of the month `n` months before this one, at noon (well inside that month). */
const monthsAgo = (n: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 15, 12)).toISOString();
};
const LONG_STANDING = { diabetesSince: `${new Date().getUTCFullYear() - 3}-01-01T00:00:00.000Z` };

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  const load = async (bundle: object) =>
    expectStatus(await t.http().post('/api/fhir').set(cast.admin.auth).send(bundle), 200, 'POST /api/fhir');
  // Above 9 % eight months ago, 6.8 % today: the trend shows him as a gap until this month.
  await load(
    panelPatientBundle({
      id: 'plots-improved',
      given: 'Ivan',
      family: 'Better',
      birthDate: '1962-05-10',
      gender: 'male',
      ...LONG_STANDING,
      earlierVisits: [monthsAgo(8)],
      earlierHba1c: [{ value: 10.5, unit: '%', at: monthsAgo(8) }],
      hba1c: { value: 6.8, unit: '%' },
    }),
  );
  // A laboratory that reports IFCC: 58 mmol/mol is 7.4 %.
  await load(
    panelPatientBundle({
      id: 'plots-ifcc',
      given: 'Ilse',
      family: 'Mol',
      birthDate: '1966-01-20',
      ...LONG_STANDING,
      hba1c: { value: 58, unit: 'mmol/mol', loinc: '59261-8' },
    }),
  );
  // Exactly 9 %: at CMS122's goal, so in the 8–9 % band.
  await load(
    panelPatientBundle({
      id: 'plots-at-nine',
      given: 'Nina',
      family: 'Edge',
      birthDate: '1970-07-07',
      ...LONG_STANDING,
      hba1c: { value: 9, unit: '%' },
    }),
  );
  await load(
    panelPatientBundle({
      id: 'plots-high',
      given: 'Hugo',
      family: 'High',
      birthDate: '1959-03-03',
      gender: 'male',
      ...LONG_STANDING,
      hba1c: { value: 10.2, unit: '%' },
    }),
  );
  // Seen this year, never tested.
  await load(panelPatientBundle({ id: 'plots-untested', given: 'Otto', family: 'Untested', birthDate: '1961-11-11', ...LONG_STANDING }));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('HbA1c distribution of the panel', () => {
  it('counts CMS122’s denominator by their latest HbA1c: an IFCC result in its % band, 9.0 % at goal, an untested patient as no result', async () => {
    const res = await t.http().get('/api/panel').set(cast.pcp.auth);
    expect(res.status).toBe(200);
    const { hba1c_distribution: d, measures } = res.body as PanelJson;
    expect(d.identifier).toBe('CMS122');
    expect(d.patients).toBe(measures.find((m) => m.identifier === 'CMS122')!.counts.denominator);
    expect(d.bands.map((b) => [b.label, b.count])).toEqual([
      ['< 7 %', 1],
      ['7–7.9 %', 1],
      ['8–9 %', 1],
      ['> 9 %', 1],
      ['No result', 1],
      ['Not readable', 0],
    ]);
    expect(d.bands.find((b) => b.band === 'from_7_below_8')!.range).toBe('≥ 7 % and < 8 %');
  });

  it('is of the period asked: over the 12 months ending three months ago only the patient then above 9 % was in the denominator', async () => {
    const d = new Date();
    const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 2, 0)).toISOString().slice(0, 10);
    const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 14, 1)).toISOString().slice(0, 10);
    const res = await t.http().get('/api/panel').query({ periodStart: start, periodEnd: end }).set(cast.pcp.auth);
    expect(res.status).toBe(200);
    const dist = (res.body as PanelJson).hba1c_distribution;
    expect(dist.patients).toBe(1);
    expect(dist.bands.filter((b) => b.count > 0).map((b) => [b.band, b.count])).toEqual([['above_9', 1]]);
  });
});

describe('score trend by month', () => {
  let trend: PanelTrendJson;
  beforeAll(async () => {
    const res = await t.http().get('/api/panel/trend').set(cast.pcp.auth);
    expect(res.status).toBe(200);
    trend = res.body as PanelTrendJson;
  });

  it('has twelve monthly points per measure, the current month last, each over the 12 months ending that month', () => {
    const now = new Date();
    const thisMonth = now.toISOString().slice(0, 7);
    expect(trend.basis).toBe('rolling_12_months');
    expect(trend.through).toBe(thisMonth);
    expect(trend.measures.map((m) => m.identifier)).toEqual(['CMS122', 'CMS951', 'CMS165']);
    for (const m of trend.measures) {
      expect(m.points).toHaveLength(12);
      const last = m.points[11];
      expect(last.month).toBe(thisMonth);
      const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
      const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 10);
      expect(last.period).toEqual({ start, end });
    }
    expect(trend.measures.find((m) => m.identifier === 'CMS122')!.improvement_notation).toBe('decrease');
  });

  it('this month’s point is the Panel’s own score over the same 12 months', async () => {
    const period = trend.measures[0].points[11].period;
    const res = await t.http().get('/api/panel').query({ periodStart: period.start, periodEnd: period.end }).set(cast.pcp.auth);
    const panel = res.body as PanelJson;
    for (const m of trend.measures) {
      const card = panel.measures.find((x) => x.id === m.id)!;
      expect({ measure: m.identifier, ...m.points[11] }).toMatchObject({
        measure: m.identifier,
        numerator: card.counts.numerator,
        eligible: card.eligible,
        score: card.score,
      });
    }
  });

  it('a patient above 9 % eight months ago and 6.8 % today was CMS122’s one gap for eight months, and is at goal this month', () => {
    const cms122 = trend.measures.find((m) => m.identifier === 'CMS122')!;
    const byAgo = (n: number) => cms122.points[11 - n];
    for (const n of [9, 10, 11])
      expect({ monthsAgo: n, ...byAgo(n) }).toMatchObject({ monthsAgo: n, numerator: 0, eligible: 0, score: null });
    for (const n of [8, 4, 1]) expect({ monthsAgo: n, ...byAgo(n) }).toMatchObject({ monthsAgo: n, numerator: 1, eligible: 1, score: 1 });
    // This month all five are eligible. In CMS122's numerator: 10.2 %, never tested, and the IFCC-only patient, whose
    // 59261-8 is outside the measure's HbA1c value set (the distribution reads it; the measure does not).
    expect(byAgo(0)).toMatchObject({ numerator: 3, eligible: 5, score: 0.6 });
  });

  it('takes no parameters', async () => {
    const res = await t.http().get('/api/panel/trend').query({ months: '24' }).set(cast.pcp.auth);
    expect(res.status).toBe(400);
  });
});
