import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PanelJson, PanelMeasureJson, PanelPatientJson, PanelTrendJson } from '@cds/contracts';
import { apiError, json, me, mockApi, renderApp, seedSession } from '../../test/helpers';
import { filterGaps } from './panelFormat';

const YEAR = new Date().getFullYear();
const PERIOD = { start: `${YEAR}-01-01`, end: `${YEAR}-12-31` };

const measure = (over: Partial<PanelMeasureJson>): PanelMeasureJson => ({
  id: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
  identifier: 'CMS122',
  title: 'Diabetes: Glycemic Status Assessment Greater Than 9%',
  goal: 'Most recent HbA1c or GMI in the period at or below 9 %',
  score_meaning: 'Share of eligible patients with HbA1c or GMI above 9 %, without a result, or not tested (lower is better)',
  improvement_notation: 'decrease',
  counts: { initial_population: 3, denominator: 3, denominator_exclusion: 0, numerator: 1, undetermined: 1 },
  eligible: 2,
  score: 0.5,
  local_version: null,
  gaps: 1,
  ...over,
});

const PANEL: PanelJson = {
  period: PERIOD,
  patients: 3,
  hba1c_distribution: {
    measure_id: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
    identifier: 'CMS122',
    patients: 3,
    bands: [
      { band: 'below_7', label: '< 7 %', range: '< 7 %', count: 1 },
      { band: 'from_7_below_8', label: '7–7.9 %', range: '≥ 7 % and < 8 %', count: 0 },
      { band: 'from_8_to_9', label: '8–9 %', range: '≥ 8 % and ≤ 9 %', count: 0 },
      { band: 'above_9', label: '> 9 %', range: '> 9 %', count: 1 },
      { band: 'no_result', label: 'No result', range: 'No HbA1c with a result in the period', count: 0 },
      { band: 'not_readable', label: 'Not readable', range: 'A comparator, or a unit that does not convert to %', count: 1 },
    ],
  },
  measures: [
    measure({}),
    measure({
      id: 'KidneyHealthEvaluationFHIR',
      identifier: 'CMS951',
      title: 'Kidney Health Evaluation',
      goal: 'Both an eGFR and a urine albumin-creatinine ratio in the period',
      score_meaning: 'Share of eligible patients with both kidney tests in the period (higher is better)',
      improvement_notation: 'increase',
      counts: { initial_population: 2, denominator: 2, denominator_exclusion: 0, numerator: 0, undetermined: 0 },
      eligible: 2,
      score: 0,
      gaps: 2,
    }),
  ],
  gaps: [
    {
      measure_id: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
      identifier: 'CMS122',
      patient_id: 'p-ada',
      name: 'Ada Hightower',
      birth_date: '1960-04-02',
      age: 66,
      status: 'gap',
      reason: 'Most recent HbA1c or GMI 10.2 % (above 9 %)',
    },
    {
      measure_id: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
      identifier: 'CMS122',
      patient_id: 'p-una',
      name: 'Una Reed',
      birth_date: '1958-09-30',
      age: 68,
      status: 'undetermined',
      reason: 'Not determined from the record: Most recent HbA1c or GMI (lowest that day) could not be read',
    },
    {
      measure_id: 'KidneyHealthEvaluationFHIR',
      identifier: 'CMS951',
      patient_id: 'p-ada',
      name: 'Ada Hightower',
      birth_date: '1960-04-02',
      age: 66,
      status: 'gap',
      reason: 'No eGFR and no urine albumin-creatinine ratio with a result in the period',
    },
    {
      measure_id: 'KidneyHealthEvaluationFHIR',
      identifier: 'CMS951',
      patient_id: 'p-bo',
      name: 'Bo Adler',
      birth_date: '1980-01-01',
      age: 46,
      status: 'gap',
      reason: 'No urine albumin-creatinine ratio with a result in the period',
    },
  ],
};

const EVIDENCE: PanelPatientJson = {
  period: PERIOD,
  patient: { id: 'p-ada', name: 'Ada Hightower', birth_date: '1960-04-02', age: 66, gender: 'female' },
  measures: [
    {
      id: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
      local_version: null,
      identifier: 'CMS122',
      title: 'Diabetes: Glycemic Status Assessment Greater Than 9%',
      goal: 'Most recent HbA1c or GMI in the period at or below 9 %',
      status: 'gap',
      reason: 'Most recent HbA1c or GMI 10.2 % (above 9 %)',
      populations: [
        {
          code: 'numerator',
          label: 'Numerator',
          state: true,
          rules: ['Most recent HbA1c or GMI > 9 %'],
          inputs: [
            {
              parameter_id: 'glycemic_status_lowest',
              display_name: 'Most recent HbA1c or GMI (lowest that day)',
              answer: '10.2 %',
              evidence: [
                {
                  resource_type: 'Observation',
                  id: 'p-ada-hba1c',
                  at: `${YEAR}-03-04T10:00:00.000Z`,
                  what: 'Hemoglobin A1c/Hemoglobin.total in Blood',
                  value: '10.2 %',
                },
              ],
              set_aside: [],
            },
          ],
        },
      ],
    },
  ],
  histories: [
    {
      title: 'HbA1c',
      unit: '%',
      points: [
        { at: `${YEAR - 1}-09-10T10:00:00.000Z`, value: 8.4 },
        { at: `${YEAR}-03-04T10:00:00.000Z`, value: 10.2 },
      ],
      thresholds: [{ value: 9, label: 'CMS122: > 9 % is poor control' }],
      not_plotted: 1,
    },
    {
      title: 'Systolic blood pressure',
      unit: 'mmHg',
      points: [{ at: `${YEAR}-03-04T10:00:00.000Z`, value: 128 }],
      thresholds: [{ value: 140, label: 'CMS165: controlled < 140' }],
      not_plotted: 0,
    },
  ],
};

/** Twelve months through November 2026: CMS122 from 2 of 2 (100 %) down to 1 of 2; CMS951 without eligible patients until August. */
const MONTHS = Array.from({ length: 12 }, (_, i) => {
  const d = new Date(Date.UTC(2025, 11 + i, 1));
  const end = new Date(Date.UTC(2025, 12 + i, 0));
  const start = new Date(Date.UTC(2025, i, 1));
  return { month: d.toISOString().slice(0, 7), period: { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) } };
});
const TREND: PanelTrendJson = {
  basis: 'rolling_12_months',
  through: '2026-11',
  patients: 3,
  measures: [
    {
      id: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
      identifier: 'CMS122',
      title: 'Diabetes: Glycemic Status Assessment Greater Than 9%',
      improvement_notation: 'decrease',
      points: MONTHS.map((m, i) =>
        i < 6 ? { ...m, numerator: 2, eligible: 2, score: 1 } : { ...m, numerator: 1, eligible: 2, score: 0.5 },
      ),
    },
    {
      id: 'KidneyHealthEvaluationFHIR',
      identifier: 'CMS951',
      title: 'Kidney Health Evaluation',
      improvement_notation: 'increase',
      points: MONTHS.map((m, i) =>
        i < 8 ? { ...m, numerator: 0, eligible: 0, score: null } : { ...m, numerator: 0, eligible: 2, score: 0 },
      ),
    },
  ],
};

const signedInPcp = (routes: Parameters<typeof mockApi>[0]) => {
  seedSession();
  return mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/panel/trend': json(200, TREND), ...routes });
};

describe('the Panel', () => {
  it('with no records loaded it says how records get in', async () => {
    signedInPcp({ 'GET /api/panel': json(200, { ...PANEL, patients: 0, gaps: [] }) });
    renderApp('/pcp/panel');
    expect(await screen.findByText('No patient records are loaded yet')).toBeInTheDocument();
    expect(screen.getByText(/FHIR R4 Bundles through POST \/api\/fhir/)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Gap list' })).not.toBeInTheDocument();
  });

  it("shows each measure's score with its numerator, eligible patients and goal, for the current calendar year", async () => {
    const api = signedInPcp({ 'GET /api/panel': json(200, PANEL) });
    renderApp('/pcp/panel');
    const card = await screen.findByRole('region', { name: /CMS122/ });
    expect(within(card).getByTestId('score-CMS122')).toHaveTextContent('50 %');
    expect(within(card).getByTestId('fraction-CMS122')).toHaveTextContent('1 of 2 eligible');
    expect(within(card).getByText(/at or below 9 %/)).toBeInTheDocument();
    expect(within(card).getByText(/inverse measure/)).toBeInTheDocument();
    expect(within(card).getByText(/not determined from the record/)).toBeInTheDocument();
    expect(screen.getByText(/the current calendar year/)).toBeInTheDocument();
    const [call] = api.callsTo('GET /api/panel');
    expect([call.query.get('periodStart'), call.query.get('periodEnd')]).toEqual([PERIOD.start, PERIOD.end]);
  });

  it('the gap list filters by measure and by text, and sorts by age', async () => {
    signedInPcp({ 'GET /api/panel': json(200, PANEL) });
    renderApp('/pcp/panel');
    const table = await screen.findByRole('table', { name: 'Gap list' });
    const names = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[0].querySelector('button')!.textContent);
    expect(names()).toEqual(['Ada Hightower', 'Ada Hightower', 'Bo Adler', 'Una Reed']);
    await userEvent.click(within(table).getByRole('button', { name: 'Age' }));
    expect(names()).toEqual(['Bo Adler', 'Ada Hightower', 'Ada Hightower', 'Una Reed']);
    await userEvent.click(screen.getByRole('combobox', { name: 'Measure' }));
    await userEvent.click(await screen.findByRole('option', { name: /CMS951/ }));
    expect(names()).toEqual(['Bo Adler', 'Ada Hightower']);
    await userEvent.type(screen.getByRole('textbox', { name: 'Search name or reason' }), 'albumin');
    expect(screen.getByTestId('gap-count')).toHaveTextContent('2 of 4 entries');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Search name or reason' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Search name or reason' }), 'bo ad');
    expect(names()).toEqual(['Bo Adler']);
  });

  it('an undetermined patient is shown as not determined, never as a gap or met', async () => {
    signedInPcp({ 'GET /api/panel': json(200, PANEL) });
    renderApp('/pcp/panel');
    const table = await screen.findByRole('table', { name: 'Gap list' });
    const row = within(table).getByText('Una Reed').closest('tr')!;
    expect(within(row).getByText('Not determined')).toBeInTheDocument();
    expect(within(row).queryByText('Gap')).not.toBeInTheDocument();
  });

  it('an error offers Retry, which loads the panel again', async () => {
    let calls = 0;
    signedInPcp({
      'GET /api/panel': () => (++calls === 1 ? apiError(503, 'service_unavailable', 'The database is unavailable') : json(200, PANEL)),
    });
    renderApp('/pcp/panel');
    expect(await screen.findByText('Could not load the panel.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Gap list' })).toBeInTheDocument();
  });

  it("a gap opens the patient's evidence with dates and values; Start assessment opens the form with the record's values", async () => {
    const api = signedInPcp({
      'GET /api/panel': json(200, PANEL),
      'GET /api/panel/patients/p-ada': json(200, EVIDENCE),
      'POST /api/panel/patients/p-ada/assessment-prefill': json(201, { url: '/clinical-form?prefill=AbCdEfGhIjKlMnOpQrStUv', values: 1 }),
      'POST /api/cds-prefill/redeem': json(200, {
        values: [
          {
            parameter_id: 'p-a1c',
            parameter_name: 'hba1c',
            display_name: 'HbA1c',
            value: 10.2,
            unit: '%',
            observed_at: `${YEAR}-03-04T10:00:00.000Z`,
            source: 'observation',
          },
        ],
        issued_at: new Date().toISOString(),
      }),
    });
    renderApp('/pcp/panel');
    const table = await screen.findByRole('table', { name: 'Gap list' });
    await userEvent.click(within(table).getAllByRole('button', { name: 'Ada Hightower' })[0]);
    const dialog = await screen.findByRole('dialog', { name: /Ada Hightower/ });
    const evidence = await within(dialog).findByRole('list', { name: 'Evidence for Most recent HbA1c or GMI (lowest that day)' });
    expect(evidence).toHaveTextContent(`Mar 4, ${YEAR} · Hemoglobin A1c/Hemoglobin.total in Blood · 10.2 %`);
    expect(within(dialog).getByText(/Because: Most recent HbA1c or GMI > 9 %/)).toBeInTheDocument();
    // The HbA1c history is plotted, its values listed newest first; one blood pressure is said in words.
    const chart = within(dialog).getByTestId('history-chart');
    expect(within(chart).getByRole('img').getAttribute('aria-label')).toBe(
      `HbA1c: 2 results from Sep 10, ${YEAR - 1} (8.4 %) to Mar 4, ${YEAR} (10.2 %)`,
    );
    expect(within(dialog).getByText(`Systolic blood pressure: one result, 128 mmHg on Mar 4, ${YEAR}`)).toBeInTheDocument();
    expect(within(dialog).getByText(/1 HbA1c result not plotted/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start assessment' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/clinical-form'));
    await waitFor(() => expect(api.callsTo('POST /api/cds-prefill/redeem')).toHaveLength(1));
    expect(api.callsTo('POST /api/cds-prefill/redeem')[0].body).toEqual({ ticket: 'AbCdEfGhIjKlMnOpQrStUv' });
  });
});

describe('the Panel’s plots', () => {
  it('CMS122 improving over the year: a line per measure named by its months, CMS122 marked lower is better, every month’s numerator and eligible listed', async () => {
    signedInPcp({ 'GET /api/panel': json(200, PANEL) });
    renderApp('/pcp/panel');
    const cms122 = await screen.findByTestId('trend-CMS122');
    expect(within(cms122).getByRole('img').getAttribute('aria-label')).toBe(
      'CMS122 score by month, Dec 2025 to Nov 2026: from 100 % in Dec 2025 (2 of 2) to 50 % in Nov 2026 (1 of 2). Lower is better: a falling line is improvement.',
    );
    expect(within(cms122).getByText(/Lower is better/)).toBeInTheDocument();
    expect(cms122.querySelectorAll('circle')).toHaveLength(12);
    const cms951 = screen.getByTestId('trend-CMS951');
    expect(within(cms951).getByRole('img').getAttribute('aria-label')).toMatch(
      /from 0 % in Aug 2026 \(0 of 2\) to 0 % in Nov 2026.*Higher is better/,
    );
    expect(cms951.querySelectorAll('circle')).toHaveLength(4);
    expect(screen.getByTestId('trend-basis')).toHaveTextContent('the 12 months ending that month');
    // At a desk the months run left to right as in the plots: a row per measure, each point's numerator and eligible under its score.
    const table = screen.getByRole('table', { name: 'Score by month' });
    const header = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect([header[1], header[12]]).toEqual(['Dec ’25', 'Nov ’26']);
    const cells = (name: RegExp) =>
      within(within(table).getByRole('row', { name }))
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(/^CMS122/)).toEqual([...Array(6).fill('100 %2 of 2'), ...Array(6).fill('50 %1 of 2')]);
    expect(cells(/^CMS951/).slice(7, 9)).toEqual(['—none', '0 %0 of 2']);
  });

  it('the HbA1c distribution: a bar per band named with its count, and the ranges with counts and shares in a table', async () => {
    signedInPcp({ 'GET /api/panel': json(200, PANEL) });
    renderApp('/pcp/panel');
    const chart = await screen.findByTestId('hba1c-distribution-chart');
    expect(chart.getAttribute('role')).toBe('img');
    expect(chart.getAttribute('aria-label')).toBe(
      "Most recent HbA1c of the 3 patients in CMS122's denominator: < 7 %: 1, 7–7.9 %: 0, 8–9 %: 0, > 9 %: 1, No result: 0, Not readable: 1",
    );
    expect(chart.querySelectorAll('rect')).toHaveLength(6);
    const rows = within(screen.getByRole('table', { name: 'HbA1c bands' }))
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows.slice(0, 4)).toEqual([
      '< 7 %' + '1' + '33 %',
      '≥ 7 % and < 8 %' + '0' + '0 %',
      '≥ 8 % and ≤ 9 %' + '0' + '0 %',
      '> 9 %' + '1' + '33 %',
    ]);
    expect(screen.getByText(/8 % to 9 % inclusive; above 9 %/)).toBeInTheDocument();
  });

  it('a panel too large for the trend says so and offers Retry; the scores and the gap list stay', async () => {
    signedInPcp({
      'GET /api/panel': json(200, PANEL),
      'GET /api/panel/trend': apiError(
        409,
        'conflict',
        'The trend is computed on request for panels of up to 2000 patients; this panel has 2400',
      ),
    });
    renderApp('/pcp/panel');
    expect(await screen.findByText('Could not load the score by month.')).toBeInTheDocument();
    expect(screen.getByText(/panels of up to 2000 patients/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Gap list' })).toBeInTheDocument();
    expect(screen.getByTestId('score-CMS122')).toHaveTextContent('50 %');
  });
});

describe('filterGaps', () => {
  it('ties keep name order; a missing age sorts first ascending', () => {
    const rows = filterGaps([...PANEL.gaps, { ...PANEL.gaps[3], patient_id: 'p-x', name: 'Xena', age: null }], {
      measure: 'all',
      text: '',
      sort: 'age',
      direction: 'asc',
    });
    expect(rows.map((r) => r.name)).toEqual(['Xena', 'Bo Adler', 'Ada Hightower', 'Ada Hightower', 'Una Reed']);
  });
});
