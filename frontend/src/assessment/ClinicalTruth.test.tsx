import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AssessmentJson as Assessment } from '@cds/contracts';
import {
  diabetesFinding,
  HBA1C_ID,
  hba1cBand,
  hba1cQuestion,
  hba1cTyped,
  hypertensiveEmergency,
  sbpQuestion,
  sbpTyped,
  undeterminedRetinopathy,
} from '../test/clinicalFixtures';
import { apiError, json, makeAssessment, me, mockApi, renderApp, seedSession, type Handler } from '../test/helpers';

const atHba1c = (overrides: Partial<Assessment> = {}) =>
  makeAssessment({ current_parameter_id: HBA1C_ID, current_question: hba1cQuestion, ...overrides });

const completed = (overrides: Partial<Assessment>) =>
  makeAssessment({
    step: 3,
    is_completed: true,
    current_question: null,
    current_parameter_id: null,
    completed_at: '2026-11-23T10:05:00.000Z',
    ...overrides,
  });

function flow(answer: Handler, start: Assessment = atHba1c()) {
  seedSession();
  return mockApi({
    'GET /api/me': json(200, me('pcp')),
    'POST /api/assessments': json(201, start),
    'POST /api/assessments/a-1/answers': answer,
  });
}

async function begin() {
  renderApp('/clinical-form');
  await userEvent.click(await screen.findByRole('button', { name: 'Start Assessment' }));
  return screen.findByTestId('question-card');
}

describe('a numeric question: the measured value, typed', () => {
  it('shows the unit, the limits and decimals, and sends the value with its observation date', async () => {
    const api = flow(json(200, completed({ recommendation: diabetesFinding, findings: [diabetesFinding], answer_details: [hba1cTyped] })));
    const card = await begin();
    const value = within(card).getByRole('textbox', { name: 'HbA1c (%)' });
    expect(within(card).getByText('Between 3 and 20 %, up to 1 decimal place')).toBeInTheDocument();
    await userEvent.type(value, '6.5');
    await userEvent.type(within(card).getByLabelText('Observed on (optional)'), '2026-11-20');
    await userEvent.click(within(card).getByRole('button', { name: 'Record value' }));
    await screen.findByTestId('result-card');
    expect(api.callsTo('POST /api/assessments/a-1/answers')[0].body).toEqual({
      parameter_id: HBA1C_ID,
      value: 6.5,
      observed_at: '2026-11-20',
      step: 1,
    });
  });

  it.each([
    ['25', 'HbA1c must be at most 20 %.'],
    ['2.9', 'HbA1c must be at least 3 %.'],
    ['6.55', 'HbA1c is recorded to 1 decimal place.'],
    ['six', 'Enter a number, for example 6.5.'],
    ['', 'Enter the HbA1c value.'],
  ])('refuses %j before sending, naming the limit', async (typed, message) => {
    const api = flow(json(200, atHba1c()));
    const card = await begin();
    if (typed) await userEvent.type(within(card).getByRole('textbox', { name: 'HbA1c (%)' }), typed);
    await userEvent.click(within(card).getByRole('button', { name: 'Record value' }));
    expect(await within(card).findByText(message)).toBeInTheDocument();
    expect(within(card).getByRole('textbox', { name: 'HbA1c (%)' })).toHaveValue(typed);
    expect(api.callsTo('POST /api/assessments/a-1/answers')).toHaveLength(0);
  });

  it('a count without a unit shows its limits, never a conversion to no unit', async () => {
    const days = {
      ...hba1cQuestion,
      parameter_id: 'p-days',
      name: 'a1c_diabetes_range_days',
      display_name: 'Days with A1C ≥ 6.5 % (12 months)',
      units: null,
      data_type: 'number',
      input: { kind: 'number', unit: null, unit_display: null, units_accepted: [], min: 0, max: 366, decimals: 0 },
      options: [{ label: 'Not available', value: 'unknown' }],
    } as typeof hba1cQuestion;
    flow(json(200, atHba1c()), makeAssessment({ current_parameter_id: 'p-days', current_question: days }));
    const card = await begin();
    expect(within(card).getByText('Between 0 and 366, whole numbers')).toBeInTheDocument();
    expect(within(card).queryByText(/Converted to/)).toBeNull();
  });

  it('another unit the parameter lists is sent as such; the server converts and checks it', async () => {
    const api = flow(json(200, atHba1c({ step: 2 })));
    const card = await begin();
    await userEvent.selectOptions(within(card).getByRole('combobox', { name: 'Unit' }), 'mmol/mol');
    await userEvent.type(within(card).getByRole('textbox', { name: 'HbA1c (mmol/mol)' }), '48');
    await userEvent.click(within(card).getByRole('button', { name: 'Record value' }));
    await waitFor(() => expect(api.callsTo('POST /api/assessments/a-1/answers')).toHaveLength(1));
    expect(api.callsTo('POST /api/assessments/a-1/answers')[0].body).toEqual({
      parameter_id: HBA1C_ID,
      value: 48,
      unit: 'mmol/mol',
      step: 1,
    });
  });

  it("shows the server's 422 message beside the field and keeps what was typed", async () => {
    flow(apiError(422, 'out_of_range', 'HbA1c must be between 3 and 20 % (was 21.6 % from 210 mmol/mol)'));
    const card = await begin();
    await userEvent.selectOptions(within(card).getByRole('combobox', { name: 'Unit' }), 'mmol/mol');
    const value = within(card).getByRole('textbox', { name: 'HbA1c (mmol/mol)' });
    await userEvent.type(value, '210');
    await userEvent.click(within(card).getByRole('button', { name: 'Record value' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('HbA1c must be between 3 and 20 % (was 21.6 % from 210 mmol/mol)');
    expect(value).toHaveValue('210');
    expect(within(card).getByRole('combobox', { name: 'Unit' })).toHaveValue('mmol/mol');
    // Once the clinician corrects the value, the refusal of the old one goes.
    await userEvent.clear(value);
    await userEvent.type(value, '48');
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('bands and Not available', () => {
  it('offers the bands as the server labels them, and Not available; a band is sent as an interval', async () => {
    const api = flow(json(200, atHba1c({ step: 2 })));
    const card = await begin();
    const group = within(card).getByRole('group', { name: 'Or choose a range' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['HbA1c < 5.7 %', 'HbA1c 5.7 to < 6.5 %', 'HbA1c ≥ 6.5 %', 'Not available']);
    await userEvent.click(within(group).getByRole('button', { name: 'HbA1c 5.7 to < 6.5 %' }));
    await waitFor(() => expect(api.callsTo('POST /api/assessments/a-1/answers')).toHaveLength(1));
    expect(api.callsTo('POST /api/assessments/a-1/answers')[0].body).toEqual({
      parameter_id: HBA1C_ID,
      value: { type: 'range', min: 5.7, max: 6.5, min_inclusive: true, max_inclusive: false },
      step: 1,
    });
  });

  it('Not available is sent as unknown', async () => {
    const api = flow(json(200, completed({ undetermined_rules: [undeterminedRetinopathy] })));
    const card = await begin();
    await userEvent.click(within(card).getByRole('button', { name: 'Not available' }));
    await screen.findByTestId('result-card');
    expect(api.callsTo('POST /api/assessments/a-1/answers')[0].body).toEqual({ parameter_id: HBA1C_ID, value: 'unknown', step: 1 });
  });

  it('a question the server sent without Not available still offers it', async () => {
    flow(json(200, atHba1c()), atHba1c({ current_question: { ...sbpQuestion, options: sbpQuestion.options.slice(0, 2) } }));
    const card = await begin();
    expect(within(card).getByRole('button', { name: 'Not available' })).toBeInTheDocument();
  });

  it('says plainly when a band straddled a threshold and the exact value is needed', async () => {
    flow(json(200, atHba1c()), atHba1c({ step: 2, answer_details: [hba1cBand] }));
    const card = await begin();
    expect(within(card).getByTestId('exact-value-needed')).toHaveTextContent(
      'The band you chose (HbA1c 5.7 to < 6.5 %) includes a threshold a rule uses, so it cannot decide that rule. Please enter the exact value.',
    );
    expect(within(card).getByRole('textbox', { name: 'HbA1c (%)' })).toBeInTheDocument();
  });
});

describe('the result: every finding as a card', () => {
  const both = completed({
    recommendation: hypertensiveEmergency,
    findings: [hypertensiveEmergency, diabetesFinding],
    undetermined_rules: [undeterminedRetinopathy],
    answer_details: [hba1cTyped, sbpTyped],
  });

  it('critical first and marked primary, each with severity word, actions, basis as entered, rule, version, rule set and source', async () => {
    flow(json(200, both));
    const card = await begin();
    await userEvent.type(within(card).getByRole('textbox', { name: 'HbA1c (%)' }), '6.5');
    await userEvent.click(within(card).getByRole('button', { name: 'Record value' }));
    const result = await screen.findByTestId('result-card');
    // Focus moves to the result when the assessment completes (issue 10, item 17).
    await waitFor(() => expect(within(result).getByRole('heading', { name: 'Clinical Recommendation' })).toHaveFocus());

    const cards = within(result).getAllByTestId('finding-card');
    expect(cards.map((c) => c.getAttribute('data-severity'))).toEqual(['critical', 'high']);
    const [emergency, diabetes] = cards;
    expect(within(emergency).getByText('Primary recommendation')).toBeInTheDocument();
    expect(within(diabetes).queryByText('Primary recommendation')).not.toBeInTheDocument();
    expect(within(emergency).getByRole('heading', { name: 'Hypertensive emergency' })).toBeInTheDocument();
    expect(within(emergency).getByText('Critical severity')).toBeInTheDocument();
    expect(within(emergency).getByText('Send to the emergency department now')).toBeInTheDocument();
    expect(within(emergency).getByTestId('basis-item')).toHaveTextContent(
      'Systolic blood pressure ≥ 180 mmHg — answer: 200 mmHg (typed value)',
    );
    expect(within(emergency).getByTestId('rule-provenance')).toHaveTextContent(
      'Rule: Hypertensive emergency · version 3 · Rule set: Blood pressure · Source: ADA Standards of Care in Diabetes—2026, Section 10',
    );
    expect(within(diabetes).getByText('High severity')).toBeInTheDocument();
    expect(within(diabetes).getByTestId('basis-item')).toHaveTextContent(
      'HbA1c ≥ 6.5 % — answer: 6.5 % (typed value, observed Nov 20, 2026)',
    );
    expect(within(result).getByText('2 rules fired, most urgent first.')).toBeInTheDocument();

    const undetermined = within(result).getByTestId('undetermined-rules');
    expect(within(undetermined).getByRole('heading', { name: 'Could not be evaluated' })).toBeInTheDocument();
    expect(undetermined).toHaveTextContent('Diabetic kidney disease (Diabetes complications) — missing: Urine albumin-to-creatinine ratio');
  });

  it('nothing fired: the spec’s No Recommendation Available card, with what could not be evaluated', async () => {
    flow(json(200, completed({ findings: [], recommendation: null, undetermined_rules: [undeterminedRetinopathy] })));
    const card = await begin();
    await userEvent.click(within(card).getByRole('button', { name: 'Not available' }));
    const result = await screen.findByTestId('result-card');
    expect(within(result).getByRole('heading', { name: 'No Recommendation Available' })).toBeInTheDocument();
    expect(within(result).queryAllByTestId('finding-card')).toHaveLength(0);
    expect(within(result).getByTestId('undetermined-rules')).toHaveTextContent('missing: Urine albumin-to-creatinine ratio');
    await waitFor(() => expect(within(result).getByRole('heading', { name: 'Assessment complete' })).toHaveFocus());
  });
});
