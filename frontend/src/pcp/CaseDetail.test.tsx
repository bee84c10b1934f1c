import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AssessmentJson as Assessment, ResultHistoryJson } from '@cds/contracts';
import { hba1cTyped } from '../test/clinicalFixtures';
import { json, makeAssessment, me, mockApi, renderApp, seedSession } from '../test/helpers';

// Issue 20: the case detail of an assessment started from the record names the patient and plots each
// parameter's results as they were read; one result is said in words, none shows nothing.
const hba1c: ResultHistoryJson = {
  title: 'HbA1c',
  unit: '%',
  points: [
    { at: '2025-10-22T09:00:00.000Z', value: 6.1 },
    { at: '2026-05-10T09:00:00.000Z', value: 7.46, entered: '58 mmol/mol' },
    { at: '2026-11-20T09:00:00.000Z', value: 7.4 },
  ],
  thresholds: [
    { value: 5.7, label: 'Rule cut-point 5.7 %' },
    { value: 6.5, label: 'Rule cut-point 6.5 %' },
  ],
  not_plotted: 0,
};
const sbp: ResultHistoryJson = {
  title: 'Systolic Blood Pressure',
  unit: 'mmHg',
  points: [{ at: '2026-11-18T09:00:00.000Z', value: 152 }],
  thresholds: [{ value: 140, label: 'Rule cut-point 140 mmHg' }],
  not_plotted: 0,
};
const egfr: ResultHistoryJson = { title: 'eGFR', unit: 'mL/min/1.73 m²', points: [], thresholds: [], not_plotted: 1 };

const fromRecord = (over: Partial<Assessment> = {}): Assessment =>
  makeAssessment({
    id: 'a7',
    is_completed: true,
    current_question: null,
    current_parameter_id: null,
    answer_details: [hba1cTyped],
    completed_at: '2026-11-23T10:05:00.000Z',
    patient: { source: 'record', reference: 'Patient/rising-a1c', name: 'Ada Hightower' },
    histories: [hba1c, sbp, egfr],
    ...over,
  });

function show(a: Assessment) {
  seedSession();
  mockApi({ 'GET /api/me': json(200, me('pcp')), [`GET /api/assessments/${a.id}`]: json(200, a) });
  renderApp(`/pcp/cases/${a.id}`);
}

describe('Case detail: the patient and the results the values were read from', () => {
  it('the Case History list names the patient under the result of a case started from the record', async () => {
    seedSession();
    const cases = [fromRecord(), fromRecord({ id: 'a8', patient: null, histories: undefined })];
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': json(200, cases, { 'Content-Range': 'assessments 0-1/2' }),
      'GET /api/chat-sessions': json(200, [], { 'Content-Range': 'chat-sessions 0-0/0' }),
    });
    renderApp('/pcp/cases');
    const rows = within(await screen.findByRole('table', { name: 'Case history' }))
      .getAllByRole('row')
      .slice(1);
    expect(within(rows[0]).getByTestId('case-row-patient')).toHaveTextContent('Ada Hightower');
    expect(within(rows[1]).queryByTestId('case-row-patient')).toBeNull();
  });

  it('HbA1c rising over a year from the Panel: the patient is named, the three results plotted, the IFCC one listed as given with ≈', async () => {
    show(fromRecord());
    const patient = await screen.findByTestId('case-patient');
    expect(patient).toHaveTextContent(/^Ada Hightower/);
    expect(patient).toHaveTextContent("Patient/rising-a1c in the clinic's records");
    expect(screen.getByText('Patient (values from the record)')).toBeInTheDocument();

    const section = screen.getByRole('region', { name: 'Results over time' });
    const charts = within(section).getAllByTestId('history-chart');
    expect(charts).toHaveLength(1);
    expect(within(charts[0]).getByRole('img')).toHaveAccessibleName('HbA1c: 3 results from Oct 22, 2025 (6.1 %) to Nov 20, 2026 (7.4 %)');
    const rows = within(charts[0]).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(['Nov 20, 20267.4 %', 'May 10, 202658 mmol/mol (≈ 7.46 %)', 'Oct 22, 20256.1 %']);
    expect(within(charts[0]).getByText('Rule cut-point 6.5 %')).toBeInTheDocument();

    // One blood pressure: in words, no plot. The eGFR with no usable number: only the count.
    expect(within(section).getByText('Systolic Blood Pressure: one result, 152 mmHg on Nov 18, 2026')).toBeInTheDocument();
    expect(within(section).getByText(/1 eGFR result not plotted/)).toBeInTheDocument();
  });

  it('an HbA1c offered from the record and recorded unchanged reads as confirmed from the record, never as typed', async () => {
    show(fromRecord({ answer_details: [{ ...hba1cTyped, confirmed_from: 'record' }] }));
    const answers = within(await screen.findByRole('region', { name: 'Answers' }));
    expect(answers.getByText(/from the record, confirmed/)).toBeInTheDocument();
    expect(answers.queryByText(/typed value/)).toBeNull();
  });

  it('values from an EHR: the EHR patient id names the patient', async () => {
    show(fromRecord({ patient: { source: 'ehr', reference: 'Patient/p-913', name: null }, histories: [sbp] }));
    expect(await screen.findByTestId('case-patient')).toHaveTextContent('EHR patient p-913');
    expect(screen.getByText('Patient (values from the EHR)')).toBeInTheDocument();
    expect(screen.queryByTestId('history-chart')).not.toBeInTheDocument();
  });

  it('an assessment started without the record: no patient and no results section, as before', async () => {
    show(fromRecord({ patient: null, histories: undefined }));
    expect(await screen.findByRole('region', { name: 'Answers' })).toBeInTheDocument();
    expect(screen.queryByTestId('case-patient')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Results over time' })).not.toBeInTheDocument();
  });
});
