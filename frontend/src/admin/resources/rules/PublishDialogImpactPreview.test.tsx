import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImpactPreviewJson, PublishCheckJson as PublishCheck } from '@cds/contracts';
import { deferred, json, ndjsonStream, renderApp, type Handler } from '../../../test/helpers';
import { adminApiMock, listOf } from '../../test/adminHelpers';
import { parameter, rule, ruleSet } from '../../test/fixtures';

const t2d = { rule_id: 'r-t2d', rule_name: 'Type 2 diabetes (A1C)', rule_set_name: 'Glycaemic control', severity: 'high' };
/** A rule of another published set: named with its set. */
const screening = { rule_id: 'r-scr', rule_name: 'Prediabetes', rule_set_name: 'Screening', severity: 'medium' };
const pre = { rule_id: 'r-pre', rule_name: 'Prediabetes (A1C)', rule_set_name: 'Glycaemic control', severity: 'medium' };

/** Raising the A1C threshold to 7.0 %: 6.5–6.9 % patients move from T2D to prediabetes. */
const preview: ImpactPreviewJson = {
  id: 'ip-1',
  rule_set_id: 'rs-1',
  draft_hash: 'a'.repeat(64),
  base_version: 3,
  seed: 20261123,
  version_id: null,
  version_number: null,
  created_by: 'u-1',
  created_by_email: 'admin@clinic.test',
  created_at: '2026-11-23T10:00:00.000Z',
  elapsed_ms: 240,
  changes: [
    {
      rule_id: 'r-t2d',
      rule_name: 'Type 2 diabetes (A1C)',
      kind: 'edited',
      details: [
        { field: 'conditions', before: 'HbA1c ≥ 6.5 %', after: 'HbA1c ≥ 7 %' },
        { field: 'priority', before: '10', after: '20' },
      ],
    },
    {
      rule_id: 'r-hypo',
      rule_name: 'Hypoglycaemia',
      kind: 'added',
      details: [{ field: 'conditions', before: null, after: 'Glucose < 54 mg/dL' }],
    },
  ],
  groups: [
    { key: 'assessments', label: 'Recorded assessments', patients: 12, changed: 0, transitions: [], more_transitions: 0 },
    {
      key: 'vignettes',
      label: "This rule set's vignettes",
      patients: 1,
      changed: 1,
      more_transitions: 0,
      transitions: [
        {
          from: t2d,
          to: pre,
          cause: t2d,
          cause_kind: 'edited',
          count: 1,
          examples: [{ label: 'A1C 6.7 %', answers: { 'p-1': 6.7 }, values: [{ parameter: 'HbA1c', value: '6.7 %' }] }],
        },
      ],
    },
    {
      key: 'generated',
      label: '10,000 patients generated around the cut-points',
      patients: 10000,
      changed: 1234,
      more_transitions: 3,
      transitions: [
        {
          from: t2d,
          to: pre,
          cause: t2d,
          cause_kind: 'edited',
          count: 1200,
          examples: [
            { label: 'Generated patient 3', answers: { 'p-1': 6.8 }, values: [{ parameter: 'HbA1c', value: '6.8 %' }] },
            { label: 'Generated patient 9', answers: { 'p-1': 6.5 }, values: [{ parameter: 'HbA1c', value: '6.5 %' }] },
          ],
        },
        { from: t2d, to: screening, cause: t2d, cause_kind: 'edited', count: 34, examples: [] },
      ],
    },
  ],
};

const check: PublishCheck = {
  rule_set_id: 'rs-1',
  rule_count: 2,
  has_changes: true,
  latest_version: 3,
  combined_rule_sets: [{ id: 'rs-1', name: 'Glycaemic control' }],
  errors: [],
  warnings: [],
  failing_vignettes: [],
  failing_test_cases: [],
};

/** The admin console around the dialog: rule set rs-1, its diff (first version unless overridden), a clean publish check. */
function routes(diff: object): Record<string, Handler> {
  return {
    'GET /api/parameters': listOf('parameters', [parameter({ id: 'p-1' })]),
    'GET /api/rule-sets': listOf('rule-sets', [ruleSet({ is_published: true, version: 3 })]),
    'GET /api/rule-sets/templates': json(200, []),
    'GET /api/rules': listOf('rules', [rule()]),
    'GET /api/rule-sets/rs-1/diff': json(200, {
      rule_set_id: 'rs-1',
      from: null,
      to: { number: null, draft: true, content_hash: 'y', published_at: null },
      has_changes: true,
      added: [],
      removed: [],
      changed: [],
      unchanged: 2,
      parameters: { added: [], removed: [], changed: [] },
      ...diff,
    }),
    'GET /api/rule-sets/rs-1/publish-check': json(200, check),
    'GET /api/rule-sets/rs-1/versions': json(200, []),
  };
}

describe('Publish dialog: impact preview', { timeout: 60_000 }, () => {
  // The transitions chart is a lazy module: its first transform (recharts) can outlast a findBy under load,
  // and React keeps "Computing…" on screen until it is there. Load it once before the tests.
  beforeAll(async () => {
    await import('../../components/charts/TransitionsChart');
  }, 120_000);

  it('raising the A1C threshold: Publish waits for the preview, which shows each group, the rule responsible and examples on demand, and publish names it', async () => {
    const held = deferred<Response>();
    const calls = adminApiMock({
      ...routes({
        from: { number: 3, draft: false, content_hash: 'x', published_at: '2025-02-01T10:00:00.000Z' },
        changed: [{ id: 'r-t2d', name: 'Type 2 diabetes (A1C)', fields: ['conditions', 'priority'], before: {}, after: {} }],
        added: [{ id: 'r-hypo', name: 'Hypoglycaemia' }],
        unchanged: 0,
      }),
      'POST /api/rule-sets/rs-1/impact-preview': () => held.promise,
      'POST /api/rule-sets/rs-1/publish': json(201, { id: 'v4', rule_set_id: 'rs-1', number: 4, name: 'Glycaemic control' }),
    });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Glycaemic control' });
    expect(await within(dialog).findByText('Computing the impact on patients...')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Publish' })).toBeDisabled();
    const changed = within(dialog).getByRole('region', { name: 'Rules changed' });
    expect(changed).toHaveTextContent('Type 2 diabetes (A1C): conditions, priority');

    held.resolve(json(201, preview));
    const impact = await within(dialog).findByRole('region', { name: 'Impact preview' });
    // The change list now says what changed, old → new, with values and units.
    expect(
      within(within(dialog).getByRole('region', { name: 'Rules changed' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Type 2 diabetes (A1C)Conditions: HbA1c ≥ 6.5 % → HbA1c ≥ 7 %Priority: 10 → 20',
      'Conditions: HbA1c ≥ 6.5 % → HbA1c ≥ 7 %',
      'Priority: 10 → 20',
    ]);
    expect(within(dialog).getByRole('region', { name: 'Rules added' })).toHaveTextContent('HypoglycaemiaConditions: Glucose < 54 mg/dL');
    expect(impact).toHaveTextContent('Compared with version 3');
    const generated = within(impact).getByRole('region', { name: '10,000 patients generated around the cut-points' });
    expect(generated).toHaveTextContent('1,234 of 10,000 change primary recommendation');
    const rows = within(generated).getAllByRole('row');
    expect(rows[0].textContent).toBe('From → toPatientsRule responsibleExamples');
    expect(
      rows.slice(1).map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      [
        'Type 2 diabetes (A1C) → Prediabetes (A1C)1,200 patients; rule responsible: Type 2 diabetes (A1C) (edited)',
        '1,200',
        'Type 2 diabetes (A1C) (edited)',
        'Examples (2)',
      ],
      [
        'Type 2 diabetes (A1C) → Prediabetes (Screening)34 patients; rule responsible: Type 2 diabetes (A1C) (edited)',
        '34',
        'Type 2 diabetes (A1C) (edited)',
        'Examples (0)',
      ],
    ]);
    expect(generated).toHaveTextContent('… and 3 smaller transitions not listed.');
    expect(within(impact).getByRole('region', { name: 'Recorded assessments' })).toHaveTextContent('0 of 12 change primary recommendation');
    expect(within(impact).queryByRole('list', { name: 'Example patients' })).toBeNull();

    await userEvent.click(within(generated).getByRole('button', { name: 'Examples (2)' }));
    const examples = within(generated).getByRole('list', { name: 'Example patients' });
    expect(
      within(examples)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Generated patient 3: HbA1c 6.8 %', 'Generated patient 9: HbA1c 6.5 %']);
    await userEvent.click(within(generated).getByRole('button', { name: 'Hide' }));
    expect(within(generated).queryByRole('list', { name: 'Example patients' })).toBeNull();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Version 4 is now used by assessments.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/rule-sets/rs-1/publish').map((c) => c.body)).toEqual([{ impact_preview_id: 'ip-1' }]);
  });

  // Issue 23: a determinate bar moved by the server's own count of patients compared, never by a timer.
  it('while the server compares the A1C draft, the bar and the words follow its count of patients compared', async () => {
    const { response, send, close } = ndjsonStream(201);
    const calls = adminApiMock({
      ...routes({}),
      'POST /api/rule-sets/rs-1/impact-preview': response,
    });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Glycaemic control' });
    const bar = await within(dialog).findByRole('progressbar', { name: 'Patients compared' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    expect(within(dialog).getByRole('status')).toHaveTextContent('Reading the rule sets and the recorded assessments...');
    expect(calls.callsTo('POST /api/rule-sets/rs-1/impact-preview')[0].headers.get('Accept')).toContain('application/x-ndjson');

    send({ progress: { done: 0, total: 10_013 } });
    expect(await within(dialog).findByText('0 of 10,013 patients compared')).toBeInTheDocument();
    send({ progress: { done: 5_000, total: 10_013 } });
    expect(await within(dialog).findByText('5,000 of 10,013 patients compared')).toBeInTheDocument();
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeCloseTo(49.9, 0);
    expect(bar).toHaveAttribute('aria-valuetext', '5,000 of 10,013 patients compared');
    expect(within(dialog).getByRole('button', { name: 'Publish' })).toBeDisabled();
    send({ progress: { done: 10_013, total: 10_013 } });
    expect(await within(dialog).findByText('10,013 of 10,013 patients compared; storing the preview...')).toBeInTheDocument();

    send({ preview });
    close();
    await within(dialog).findByRole('region', { name: 'Impact preview' });
    expect(within(dialog).queryByRole('progressbar', { name: 'Patients compared' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Publish' })).toBeEnabled();
  });

  it("a preview that fails after it began streaming shows the server's reason", async () => {
    const lines = [
      { progress: { done: 0, total: 10_001 } },
      { error: { statusCode: 503, code: 'service_unavailable', message: 'The database is unavailable; try again shortly' } },
    ];
    adminApiMock({
      ...routes({}),
      'POST /api/rule-sets/rs-1/impact-preview': () =>
        new Response(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', {
          status: 201,
          headers: { 'Content-Type': 'application/x-ndjson' },
        }),
    });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Glycaemic control' });
    expect(await within(dialog).findByText('The database is unavailable; try again shortly')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Publish' })).toBeDisabled();
  });

  it('a stale preview (409) keeps Publish closed until the new preview is shown', async () => {
    let previews = 0;
    const calls = adminApiMock({
      ...routes({}),
      'POST /api/rule-sets/rs-1/impact-preview': () => json(201, { ...preview, id: `ip-${++previews}` }),
      'POST /api/rule-sets/rs-1/publish': (req) =>
        (req.body as { impact_preview_id: string }).impact_preview_id === 'ip-1'
          ? json(409, {
              statusCode: 409,
              code: 'conflict',
              message: 'The draft changed since this impact preview was made; review the new preview before publishing.',
              details: { impact_preview: 'stale' },
            })
          : json(201, { id: 'v4', rule_set_id: 'rs-1', number: 4, name: 'Glycaemic control' }),
    });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Glycaemic control' });
    await within(dialog).findByRole('region', { name: 'Impact preview' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(
      await within(dialog).findByText('The draft changed since this impact preview was made; review the new preview before publishing.'),
    ).toBeInTheDocument();
    await within(dialog).findByRole('region', { name: 'Impact preview' });
    expect(previews).toBe(2);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Version 4 is now used by assessments.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/rule-sets/rs-1/publish').map((c) => c.body)).toEqual([
      { impact_preview_id: 'ip-1' },
      { impact_preview_id: 'ip-2' },
    ]);
  });

  // Issue 20: only the primary recommendation was compared; a diagnosis lost behind a crisis went unseen.
  it('a finding lost where the primary recommendation stays the same is listed with its examples', async () => {
    const crisis = { rule_id: 'r-crisis', rule_name: 'Hypertensive crisis', rule_set_name: 'Glycaemic control', severity: 'critical' };
    const lostBehindCrisis: ImpactPreviewJson = {
      ...preview,
      groups: [
        {
          key: 'assessments',
          label: 'Recorded assessments',
          patients: 12,
          changed: 0,
          transitions: [],
          more_transitions: 0,
          findings_changed: 3,
          more_finding_changes: 0,
          finding_changes: [
            {
              rule: t2d,
              change: 'lost',
              cause_kind: 'edited',
              count: 3,
              same_primary: 3,
              examples: [
                {
                  label: 'Assessment of 2026-11-20',
                  answers: { 'p-1': 6.7 },
                  values: [
                    { parameter: 'HbA1c', value: '6.7 %' },
                    { parameter: 'Systolic BP', value: '190 mmHg' },
                  ],
                },
              ],
            },
            { rule: crisis, change: 'gained', cause_kind: 'parameters', count: 1, same_primary: 0, examples: [] },
          ],
        },
      ],
    };
    adminApiMock({ ...routes({}), 'POST /api/rule-sets/rs-1/impact-preview': json(201, lostBehindCrisis) });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Glycaemic control' });
    const impact = await within(dialog).findByRole('region', { name: 'Impact preview' });
    const recorded = within(impact).getByRole('region', { name: 'Recorded assessments' });
    expect(recorded).toHaveTextContent('0 of 12 change primary recommendation; 3 gain or lose a finding');
    const table = within(recorded).getByRole('table', { name: 'Recorded assessments: findings gained or lost' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      ['Type 2 diabetes (A1C) (edited)', 'Lost by 3 patients, 3 with the same primary recommendation', 'Examples (1)'],
      ['Hypertensive crisis (a parameter changed)', 'Gained by 1 patient', 'Examples (0)'],
    ]);
    await userEvent.click(within(table).getByRole('button', { name: 'Examples (1)' }));
    expect(within(table).getByRole('list', { name: 'Example patients' })).toHaveTextContent(
      'Assessment of 2026-11-20: HbA1c 6.7 %, Systolic BP 190 mmHg',
    );
  });

  // Issue 20: leaving a range with no finding where the published version had one is a warning a physician-administrator reads.
  it('raising the A1C cut-point to 7.0 %: the uncovered 6.5 to < 7 % range is a warning that needs a reason before Publish', async () => {
    const message =
      'HbA1c 6.5 to < 7 %: no rule gives a finding in this range any more. The published version gave "Type 2 diabetes (A1C)"; ' +
      'after publishing, patients with these values get no finding from HbA1c. Extend a rule to cover the range, or acknowledge if the change is intended.';
    const calls = adminApiMock({
      ...routes({}),
      'GET /api/rule-sets/rs-1/publish-check': json(200, {
        ...check,
        warnings: [{ code: 'uncovered_band', severity: 'warning', rule_ids: ['r-t2d'], parameter_id: 'p-1', message }],
      }),
      'POST /api/rule-sets/rs-1/impact-preview': json(201, preview),
      'POST /api/rule-sets/rs-1/publish': json(201, { id: 'v4', rule_set_id: 'rs-1', number: 4, name: 'Glycaemic control' }),
    });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Glycaemic control' });
    await within(dialog).findByRole('region', { name: 'Impact preview' });
    expect(within(dialog).getByRole('region', { name: 'Warnings' })).toHaveTextContent(message);
    expect(within(dialog).getByRole('button', { name: 'Publish' })).toBeDisabled();
    await userEvent.type(
      within(dialog).getByLabelText(/Reason for publishing despite the warnings/),
      'Retiring the A1C diagnosis deliberately',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Version 4 is now used by assessments.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/rule-sets/rs-1/publish').map((c) => c.body)).toEqual([
      { impact_preview_id: 'ip-1', acknowledge_warnings: { reason: 'Retiring the A1C diagnosis deliberately' } },
    ]);
  });
});
