import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AssessmentJson as Assessment } from '@cds/contracts';
import { apiError, deferred, json, makeAssessment, me, mockApi, renderApp, seedSession } from '../test/helpers';
import { CURRENT_ASSESSMENT_KEY } from './currentAssessment';

const Q2 = {
  parameter_id: 'p-ab-0000-2222',
  name: 'Antibodies',
  display_name: 'Thyroid antibodies',
  text: 'Are thyroid antibodies positive?',
  units: null,
  data_type: 'boolean',
  options: [
    { label: 'Positive (Antibodies)', value: true },
    { label: 'Negative (Antibodies)', value: false },
    { label: 'Not available', value: 'unknown' },
  ],
};

const TSH_HIGH = { type: 'range', min: 4.5, max: null, min_inclusive: true, max_inclusive: false } as const;
const tshDetail = {
  parameter_id: 'p-tsh-0000-1111',
  parameter_name: 'TSH',
  display_name: 'TSH',
  units: 'm[IU]/L',
  value: TSH_HIGH,
  unit: 'm[IU]/L',
  entered_as: 'band' as const,
  label: 'TSH ≥ 4.5 mIU/L',
  answered_at: '2025-03-01T09:31:00.000Z',
};

const result = (severity: string | null): Assessment =>
  makeAssessment({
    step: 3,
    is_completed: true,
    current_question: null,
    current_parameter_id: null,
    answers: { 'p-tsh-0000-1111': TSH_HIGH, 'p-ab-0000-2222': true },
    completed_parameter_ids: ['p-tsh-0000-1111', 'p-ab-0000-2222'],
    answer_details: [
      tshDetail,
      {
        parameter_id: 'p-ab-0000-2222',
        parameter_name: 'Antibodies',
        display_name: 'Thyroid antibodies',
        units: null,
        value: true,
        unit: null,
        entered_as: 'option',
        label: 'Positive (Antibodies)',
        answered_at: '2025-03-01T09:32:00.000Z',
      },
    ],
    completed_at: '2025-03-01T09:35:00.000Z',
    recommendation: {
      rule_id: 'r-1',
      rule_name: 'Hashimoto thyroiditis',
      rule_version: 2,
      rule_set_id: 'rs-1',
      rule_set_name: 'Thyroid',
      rule_set_version_id: 'rsv-1',
      priority: 50,
      source: null,
      description: 'Consider levothyroxine and recheck TSH in 6 weeks',
      severity: severity ?? '',
      actions: [{ type: 'medication', severity: severity ?? '', message: 'Levothyroxine', value: null }],
      basis: [
        {
          parameter_id: 'p-tsh-0000-1111',
          parameter_name: 'TSH',
          display_name: 'TSH',
          units: 'm[IU]/L',
          operator: 'greater_equal',
          threshold: 4.5,
          value: TSH_HIGH,
        },
        {
          parameter_id: 'p-ab-0000-2222',
          parameter_name: 'Antibodies',
          display_name: 'Thyroid antibodies',
          units: null,
          operator: 'equals',
          threshold: true,
          value: true,
        },
      ],
    },
  });

function flowApi(role: 'pcp' | 'admin' | 'super_admin' = 'pcp', extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /api/me': json(200, me(role)),
    'POST /api/assessments': json(201, makeAssessment()),
    'POST /api/assessments/a-1/answers': (req) =>
      (req.body as { parameter_id: string }).parameter_id === 'p-tsh-0000-1111'
        ? json(
            200,
            makeAssessment({
              step: 2,
              current_parameter_id: Q2.parameter_id,
              current_question: Q2,
              answers: { 'p-tsh-0000-1111': TSH_HIGH },
              answer_details: [tshDetail],
              completed_parameter_ids: ['p-tsh-0000-1111'],
            }),
          )
        : json(200, result('high')),
    ...extra,
  });
}

describe('Clinical Assessment', () => {
  it('header: Home, console link by role and the Debug Mode toggle', async () => {
    flowApi('pcp');
    renderApp('/clinical-form');
    expect(await screen.findByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'PCP Console' })).toHaveAttribute('href', '/pcp');
    expect(screen.getByRole('switch', { name: 'Debug Mode' })).not.toBeChecked();
  });

  it.each(['admin', 'super_admin'] as const)('%s gets the Admin Console link', async (role) => {
    flowApi(role);
    renderApp('/clinical-form');
    expect(await screen.findByRole('link', { name: 'Admin Console' })).toHaveAttribute('href', '/admin');
  });

  it('ready → start (spinner) → one question at a time → result with its basis', async () => {
    const start = deferred<Response>();
    const api = flowApi('pcp', { 'POST /api/assessments': () => start.promise });
    renderApp('/clinical-form');
    expect(await screen.findByRole('heading', { name: 'Ready to Begin?' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start Assessment' }));
    expect(await screen.findByText('Loading clinical assessment...')).toBeInTheDocument();
    start.resolve(json(201, makeAssessment()));

    const q1 = await screen.findByTestId('question-card');
    expect(within(q1).getByRole('heading', { name: 'What is the patient TSH level?' })).toBeInTheDocument();
    expect(within(q1).getByText(/mIU\/L/)).toBeInTheDocument();
    // The server's bands, and Not available on every question.
    expect(within(q1).getByRole('group').querySelectorAll('button')).toHaveLength(3);
    expect(within(q1).getByRole('button', { name: 'Not available' })).toBeInTheDocument();
    expect(sessionStorage.getItem(CURRENT_ASSESSMENT_KEY)).toBe('a-1');
    await userEvent.click(within(q1).getByRole('button', { name: 'TSH ≥ 4.5' }));

    const q2 = await screen.findByRole('heading', { name: 'Are thyroid antibodies positive?' });
    expect(q2).toBeInTheDocument();
    expect(screen.queryByText('What is the patient TSH level?')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Positive (Antibodies)' }));

    const card = await screen.findByTestId('result-card');
    expect(within(card).getByRole('heading', { name: 'Hashimoto thyroiditis' })).toBeInTheDocument();
    expect(within(card).getByText('High severity').closest('[data-severity]')).toHaveAttribute('data-severity', 'high');
    expect(within(card).getByText('Consider levothyroxine and recheck TSH in 6 weeks')).toBeInTheDocument();
    const basis = within(card).getByRole('list', { name: 'Conditions met' });
    expect(basis).toHaveTextContent('TSH ≥ 4.5 mIU/L — answer: TSH ≥ 4.5 mIU/L (band chosen)');
    expect(basis).toHaveTextContent('Thyroid antibodies = Yes — answer: Positive (Antibodies) (option chosen)');
    expect(basis).not.toHaveTextContent('5.5');
    expect(within(card).getByTestId('rule-provenance')).toHaveTextContent('Rule: Hashimoto thyroiditis · version 2 · Rule set: Thyroid');
    expect(within(card).getByRole('button', { name: 'Start New Assessment' })).toBeInTheDocument();

    const answers = api.callsTo('POST /api/assessments/a-1/answers').map((c) => c.body);
    expect(answers).toEqual([
      {
        parameter_id: 'p-tsh-0000-1111',
        value: { type: 'range', min: 4.5, max: null, min_inclusive: true, max_inclusive: false },
        step: 1,
      },
      { parameter_id: 'p-ab-0000-2222', value: true, step: 2 },
    ]);
    expect(api.callsTo('POST /api/assessments')[0].body).toEqual({ mode: 'clinical' });
  });

  it.each([
    ['high', 'high'],
    ['critical', 'critical'],
    ['medium', 'medium'],
    ['low', 'low'],
    [null, 'low'],
  ])('severity %s shows the %s badge', async (severity, shown) => {
    flowApi('pcp', { 'POST /api/assessments': json(201, result(severity)) });
    renderApp('/clinical-form');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Assessment' }));
    const card = await screen.findByTestId('result-card');
    expect(card.querySelector('[data-severity]')).toHaveAttribute('data-severity', shown);
  });

  it('no recommendation card with the spec text, and Start New Assessment starts again', async () => {
    const api = flowApi('pcp', {
      'POST /api/assessments': json(201, makeAssessment({ is_completed: true, current_question: null, current_parameter_id: null })),
    });
    renderApp('/clinical-form');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Assessment' }));
    const card = await screen.findByTestId('no-recommendation-card');
    expect(within(card).getByRole('heading', { name: 'No Recommendation Available' })).toBeInTheDocument();
    // Issue 20: the spec's "consult with your healthcare provider" was patient advice, shown to the provider.
    expect(card).toHaveTextContent('No rule fired for these answers.');
    expect(card.textContent).not.toMatch(/consult|healthcare provider/i);
    await userEvent.click(within(card).getByRole('button', { name: 'Start New Assessment' }));
    await waitFor(() => expect(api.callsTo('POST /api/assessments')).toHaveLength(2));
  });

  it('no recommendation: the card lists what the answers ruled out, each answer as entered', async () => {
    const statements = ['HbA1c 5.2 % is below 5.7 %', 'Fasting Glucose 5 mmol/L (90 mg/dL) is below 100 mg/dL'];
    flowApi('pcp', {
      'POST /api/assessments': json(
        201,
        makeAssessment({
          is_completed: true,
          current_question: null,
          current_parameter_id: null,
          ruled_out: statements.map((statement) => ({
            parameter_id: 'p',
            display_name: 'x',
            units: null,
            operator: 'greater_equal',
            threshold: 0,
            value: 0,
            label: null,
            rule_names: [],
            statement,
          })),
        }),
      ),
    });
    renderApp('/clinical-form');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Assessment' }));
    const card = await screen.findByTestId('no-recommendation-card');
    expect(card).toHaveTextContent('No rule fired. Checked and ruled out:');
    const list = within(card).getByRole('list', { name: 'Ruled out' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(statements);
  });

  it('a failed start shows the error and keeps the Ready card', async () => {
    flowApi('pcp', { 'POST /api/assessments': apiError(503, 'unavailable', 'Rules are being published, try again shortly') });
    renderApp('/clinical-form');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Assessment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Rules are being published, try again shortly');
    expect(screen.getByRole('button', { name: 'Start Assessment' })).toBeInTheDocument();
  });

  it('a failed answer keeps the question on screen', async () => {
    flowApi('pcp', { 'POST /api/assessments/a-1/answers': apiError(500, 'internal', '') });
    renderApp('/clinical-form');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Assessment' }));
    await userEvent.click(await screen.findByRole('button', { name: 'TSH < 4.5' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to record your answer. Please try again.');
    expect(screen.getByRole('button', { name: 'TSH < 4.5' })).toBeEnabled();
  });

  it('resumes the assessment of this tab after a reload', async () => {
    sessionStorage.setItem(CURRENT_ASSESSMENT_KEY, 'a-1');
    flowApi('pcp', {
      'GET /api/assessments/a-1': json(
        200,
        makeAssessment({ step: 2, current_question: Q2, answers: { 'p-tsh-0000-1111': TSH_HIGH }, answer_details: [tshDetail] }),
      ),
    });
    renderApp('/clinical-form');
    expect(await screen.findByRole('heading', { name: 'Are thyroid antibodies positive?' })).toBeInTheDocument();
    expect(screen.getByText('Question 2')).toBeInTheDocument();
  });

  it('debug mode: Current Answers and Rule Evaluation Logs from ?debug=true', async () => {
    const api = flowApi('pcp', {
      'GET /api/assessments/a-1': (req) =>
        json(200, {
          ...makeAssessment(),
          debug_log:
            req.query.get('debug') === 'true'
              ? [
                  { id: 'l1', timestamp: '2025-03-01T09:30:01.000Z', type: 'info', message: 'Loaded 4 active rules', data: { rules: 4 } },
                  { id: 'l2', timestamp: '2025-03-01T09:30:02.000Z', type: 'warning', message: 'Unknown operator "between"', data: null },
                ]
              : undefined,
        }),
    });
    renderApp('/clinical-form');
    await userEvent.click(await screen.findByRole('switch', { name: 'Debug Mode' }));
    const panel = screen.getByRole('complementary', { name: 'Debug panel' });
    expect(within(panel).getByText('No answers yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start Assessment' }));
    const log = await within(panel).findByRole('log', { name: 'Rule evaluation log entries' });
    expect(await within(log).findByText('Loaded 4 active rules')).toBeInTheDocument();
    expect(within(log).getByText('Unknown operator "between"').closest('li')).toHaveAttribute('data-log-type', 'warning');
    expect(log).toHaveTextContent('"rules": 4');
    expect(api.callsTo('GET /api/assessments/a-1').some((c) => c.query.get('debug') === 'true')).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'TSH ≥ 4.5' }));
    // Display names and the answer as entered, never an id fragment or a stand-in value.
    await waitFor(() => expect(within(panel).getByText('TSH:')).toBeInTheDocument());
    expect(within(panel).getByText('Current Answers').closest('section')).toHaveTextContent(/TSH:\s*TSH ≥ 4\.5 mIU\/L \(band chosen\)/);
    expect(within(panel).queryByText(/000-1111/)).not.toBeInTheDocument();
  });
});
