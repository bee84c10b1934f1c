import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CdsPrefillValue } from '@cds/contracts';
import { HBA1C_ID, hba1cQuestion } from '../test/clinicalFixtures';
import { apiError, json, makeAssessment, me, mockApi, renderApp, seedSession } from '../test/helpers';

/** A CDS card's link opens the form with the EHR's values offered, each confirmed by the clinician (issue 11). */
const TICKET = 'Tk3v9QnL0bWc2xYz7AaBbCcDdEeFfGgH';
const a1c: CdsPrefillValue = {
  parameter_id: HBA1C_ID,
  parameter_name: 'hba1c',
  display_name: 'HbA1c',
  value: 53,
  unit: 'mmol/mol',
  observed_at: '2026-11-13T08:30:00.000Z',
  source: 'observation',
};
const atHba1c = (id = 'a-1') => makeAssessment({ id, current_parameter_id: HBA1C_ID, current_question: hba1cQuestion });

function ehrFlow(redeem = json(200, { values: [a1c], issued_at: '2026-11-23T10:00:00.000Z', origin: 'ehr', patient: null })) {
  seedSession();
  const routes = {
    'GET /api/me': json(200, me('pcp')),
    'POST /api/cds-prefill/redeem': redeem,
    'POST /api/assessments': json(201, atHba1c()),
    'POST /api/assessments/a-1/answers': json(200, atHba1c()),
  };
  return Object.assign(mockApi(routes), { routes });
}

beforeEach(() => sessionStorage.clear());

describe('the clinical form opened from a CDS card', () => {
  it('redeems the ticket once, lists the values, and fills each in for the clinician to confirm', async () => {
    const api = ehrFlow();
    renderApp(`/clinical-form?prefill=${TICKET}`);
    const summary = await screen.findByTestId('prefill-summary');
    expect(summary).toHaveTextContent('HbA1c: 53 mmol/mol (observed Nov 13, 2026)');
    expect(api.callsTo('POST /api/cds-prefill/redeem').map((c) => c.body)).toEqual([{ ticket: TICKET }]);

    await userEvent.click(screen.getByRole('button', { name: 'Start Assessment' }));
    const card = await screen.findByTestId('question-card');
    expect(within(card).getByTestId('prefill-note')).toHaveTextContent('From EHR, observed Nov 13, 2026. Check the value, then record it.');
    expect(within(card).getByRole('textbox', { name: 'HbA1c (mmol/mol)' })).toHaveValue('53');
    expect(within(card).getByRole('combobox', { name: 'Unit' })).toHaveValue('mmol/mol');
    expect(within(card).getByLabelText('Observed on (optional)')).toHaveValue('2026-11-13');
    // Nothing is answered until the clinician confirms.
    expect(api.callsTo('POST /api/assessments/a-1/answers')).toHaveLength(0);

    await userEvent.click(within(card).getByRole('button', { name: 'Record value' }));
    await waitFor(() => expect(api.callsTo('POST /api/assessments/a-1/answers')).toHaveLength(1));
    expect(api.callsTo('POST /api/assessments/a-1/answers')[0].body).toEqual({
      parameter_id: HBA1C_ID,
      value: 53,
      unit: 'mmol/mol',
      observed_at: '2026-11-13',
      confirmed_from: 'ehr',
      step: 1,
    });
  });

  it('a value the clinician changed before recording it is theirs, not confirmed from the EHR', async () => {
    const api = ehrFlow();
    renderApp(`/clinical-form?prefill=${TICKET}`);
    await screen.findByTestId('prefill-summary');
    await userEvent.click(screen.getByRole('button', { name: 'Start Assessment' }));
    const card = await screen.findByTestId('question-card');
    const field = within(card).getByRole('textbox', { name: 'HbA1c (mmol/mol)' });
    await userEvent.clear(field);
    await userEvent.type(field, '54');
    await userEvent.click(within(card).getByRole('button', { name: 'Record value' }));
    await waitFor(() => expect(api.callsTo('POST /api/assessments/a-1/answers')).toHaveLength(1));
    expect(api.callsTo('POST /api/assessments/a-1/answers')[0].body).toEqual({
      parameter_id: HBA1C_ID,
      value: 54,
      unit: 'mmol/mol',
      observed_at: '2026-11-13',
      step: 1,
    });
  });

  it('a used or expired ticket says so, and the form starts empty', async () => {
    ehrFlow(apiError(410, 'prefill_unavailable', 'This link has expired or was already used.'));
    renderApp(`/clinical-form?prefill=${TICKET}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired or was already used.');
    expect(screen.queryByTestId('prefill-summary')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Start Assessment' }));
    const card = await screen.findByTestId('question-card');
    expect(within(card).queryByTestId('prefill-note')).toBeNull();
    expect(within(card).getByRole('textbox', { name: 'HbA1c (%)' })).toHaveValue('');
  });

  it("the values belong to the first assessment only: the next patient's form starts empty", async () => {
    const api = ehrFlow();
    renderApp(`/clinical-form?prefill=${TICKET}`);
    await screen.findByTestId('prefill-summary');
    await userEvent.click(screen.getByRole('button', { name: 'Start Assessment' }));
    expect(await screen.findByTestId('prefill-note')).toBeInTheDocument();
    api.routes['POST /api/assessments'] = json(201, atHba1c('a-2'));
    await userEvent.click(screen.getByRole('button', { name: 'Restart Assessment' }));
    await waitFor(() => expect(api.callsTo('POST /api/assessments')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByTestId('prefill-note')).toBeNull());
    expect(screen.getByRole('textbox', { name: 'HbA1c (%)' })).toHaveValue('');
  });

  // Issue 20: the summary names whose values these are and where they came from; starting names the record
  // context, so the case keeps the patient and the results.
  it('Start assessment from the Panel: the form says the values are from the record, names the patient, and keeps them with the case', async () => {
    const patient = { source: 'record' as const, reference: 'Patient/rising-a1c', name: 'Ada Hightower' };
    const context = '6f1c1c7e-8a55-4f55-9a57-3f3c4a0c2d11';
    const api = ehrFlow(
      json(200, { values: [a1c], issued_at: '2026-11-23T10:00:00.000Z', origin: 'record', patient, record_context: context }),
    );
    api.routes['POST /api/assessments'] = json(201, { ...atHba1c(), patient });
    renderApp(`/clinical-form?prefill=${TICKET}`);
    const summary = await screen.findByTestId('prefill-summary');
    expect(summary).toHaveTextContent('Values from the record');
    expect(within(summary).getByTestId('prefill-patient')).toHaveTextContent(
      "Patient: Ada Hightower · Patient/rising-a1c in the clinic's records",
    );
    expect(summary).not.toHaveTextContent('EHR');

    await userEvent.click(screen.getByRole('button', { name: 'Start Assessment' }));
    const card = await screen.findByTestId('question-card');
    expect(api.callsTo('POST /api/assessments').map((c) => c.body)).toEqual([{ mode: 'clinical', record_context: context }]);
    expect(within(card).getByTestId('assessment-patient')).toHaveTextContent('Patient: Ada Hightower');
    expect(within(card).getByTestId('prefill-note')).toHaveTextContent('From the record, observed Nov 13, 2026.');
  });

  it('values loaded too long ago: starting is refused with the reason, and the values are no longer offered', async () => {
    const api = ehrFlow(
      json(200, {
        values: [a1c],
        issued_at: '2026-11-23T10:00:00.000Z',
        origin: 'ehr',
        patient: { source: 'ehr', reference: 'Patient/p1', name: null },
        record_context: '6f1c1c7e-8a55-4f55-9a57-3f3c4a0c2d11',
      }),
    );
    api.routes['POST /api/assessments'] = apiError(410, 'record_context_unavailable', "The patient's record context cannot be used.");
    renderApp(`/clinical-form?prefill=${TICKET}`);
    expect(await screen.findByTestId('prefill-patient')).toHaveTextContent('Patient: EHR patient p1');
    await userEvent.click(screen.getByRole('button', { name: 'Start Assessment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("The patient's record context cannot be used.");
    expect(screen.queryByTestId('prefill-summary')).toBeNull();
  });

  it('signed out: the link goes to sign-in, and its ticket waits in this tab', async () => {
    mockApi({});
    renderApp(`/clinical-form?prefill=${TICKET}`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth'));
    expect(sessionStorage.getItem('cds.prefill.ticket')).toBe(TICKET);
  });

  it('after sign-in, a waiting ticket leads to the form, which redeems it', async () => {
    sessionStorage.setItem('cds.prefill.ticket', TICKET);
    const api = ehrFlow();
    renderApp('/auth');
    await screen.findByTestId('prefill-summary');
    expect(screen.getByTestId('location')).toHaveTextContent('/clinical-form');
    expect(api.callsTo('POST /api/cds-prefill/redeem').map((c) => c.body)).toEqual([{ ticket: TICKET }]);
    expect(sessionStorage.getItem('cds.prefill.ticket')).toBeNull();
  });
});
