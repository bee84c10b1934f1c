import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, renderApp, type Handler } from '../../../test/helpers';
import { adminApiMock, listOf } from '../../test/adminHelpers';
import { parameter, rule, ruleSet } from '../../test/fixtures';

const hba1c = parameter({ id: 'p-1' });

function api(extra: Record<string, Handler> = {}) {
  return adminApiMock({
    'GET /api/parameters': listOf('parameters', [hba1c]),
    'GET /api/rule-sets': listOf('rule-sets', [ruleSet({ is_published: true, is_template: true, version: 3, latest_version: 3 })]),
    'GET /api/rule-sets/templates': json(200, []),
    'GET /api/rules': listOf('rules', [rule()]),
    ...extra,
  });
}

describe('Rule Designer list page', { timeout: 60_000 }, () => {
  it('empty: the spec texts, and Create Rule opens the create-rule-set dialog, which opens the designer', async () => {
    const calls = api({
      'GET /api/rule-sets': listOf('rule-sets', []),
      'POST /api/rule-sets': json(201, ruleSet({ id: 'rs-new', name: 'Thyroid' })),
      'GET /api/rule-sets/rs-new': json(200, ruleSet({ id: 'rs-new', name: 'Thyroid' })),
      'POST /api/rule-sets/rs-new/analysis': json(200, {
        rule_set_id: 'rs-new',
        source: 'draft',
        rule_count: 0,
        summary: { error: 0, warning: 0, info: 0 },
        findings: [],
      }),
    });
    renderApp('/admin/rules');
    expect(await screen.findByRole('heading', { name: 'Rule Designer' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Rule Sets', 'Templates', 'Analytics']);
    expect(await screen.findByText('No rule sets found. Create your first rule set to get started.')).toBeInTheDocument();
    expect(screen.getByText('Select a rule set from the left to view its rules')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create Rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Rule Set' });
    expect(within(dialog).getByLabelText('Rule Set Name *')).toBeInTheDocument();
    const go = within(dialog).getByRole('button', { name: 'Create & Add Rule' });
    expect(go).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Rule Set Name *'), '   ');
    expect(go).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Rule Set Name *'), 'Thyroid');
    await userEvent.click(go);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/rules/create'));
    expect(await screen.findByText('Rule set created successfully.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/rule-sets')[0].body).toEqual({ name: 'Thyroid' });
    expect(await screen.findByRole('heading', { name: 'Create New Rule' })).toBeInTheDocument();
  });

  it('lists rule sets with badges, US date, version and the Active switch; selecting shows its rules', async () => {
    const calls = api({
      'PATCH /api/rule-sets/rs-1/activation': (req) => json(200, ruleSet({ is_active: (req.body as { is_active: boolean }).is_active })),
    });
    renderApp('/admin/rules');
    const item = await screen.findByTestId('rule-set-item');
    expect(within(item).getByText('Published')).toBeInTheDocument();
    expect(within(item).getByText('Template')).toBeInTheDocument();
    expect(within(item).getByText('Jan 5, 2025')).toBeInTheDocument();
    expect(within(item).getByText('v3')).toBeInTheDocument();
    expect(within(item).getByText('Active')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Rule Sets (1)' })).toBeInTheDocument();
    await userEvent.click(within(item).getByRole('switch', { name: 'Glycaemic control active' }));
    expect(await screen.findByText('Rule set "Glycaemic control" has been deactivated')).toBeInTheDocument();
    expect(calls.callsTo('PATCH /api/rule-sets/rs-1/activation')[0].body).toEqual({ is_active: false });

    await userEvent.click(within(item).getByRole('button', { name: 'Glycaemic control' }));
    const r = await screen.findByTestId('rule-item');
    expect(within(r).getByText('Priority: 10')).toBeInTheDocument();
    expect(within(r).getByText('Jan 6, 2025')).toBeInTheDocument();
    for (const name of ['Test Rule', 'Edit Rule', 'Clone Rule', 'Delete Rule']) {
      expect(within(r).getByRole(name === 'Edit Rule' ? 'link' : 'button', { name: `${name} Poor control` })).toBeInTheDocument();
    }
  });

  it('a rule set never published is a Draft, not "v1"', async () => {
    api({ 'GET /api/rule-sets': listOf('rule-sets', [ruleSet({ name: 'Thyroid', version: 1, latest_version: null })]) });
    renderApp('/admin/rules');
    const item = await screen.findByTestId('rule-set-item');
    expect(within(item).getByText('Draft · not published')).toBeInTheDocument();
    expect(within(item).queryByText('v1')).not.toBeInTheDocument();
  });

  it('Publish with nothing to publish says why beside it, not only on hover', async () => {
    api({
      'GET /api/rule-sets/rs-1/publish-check': json(200, { has_changes: false, latest_version: 3 }),
      'GET /api/rule-sets/rs-1/versions': json(200, []),
    });
    renderApp('/admin/rules?rule_set_id=rs-1');
    const reason = await screen.findByText('Nothing to publish: the rules are as published in version 3. Edit a rule to publish again.');
    const publish = screen.getByRole('button', { name: 'Publish' });
    expect(publish).toBeDisabled();
    expect(publish).toHaveAccessibleDescription(reason.textContent!);
  });

  it('Templates tab empty: says how a template comes to exist and leads to Rule Sets; Import Template says the same', async () => {
    api();
    renderApp('/admin/rules');
    await userEvent.click(await screen.findByRole('tab', { name: 'Templates' }));
    expect(await screen.findByText('No rule templates available')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to Rule Sets' }));
    expect(screen.getByRole('tab', { name: 'Rule Sets' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Import Template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Template' });
    expect(within(dialog).getByText(/choose "Mark as template"/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Go to Rule Sets' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('activation failure shows the spec toast', async () => {
    api({ 'PATCH /api/rule-sets/rs-1/activation': apiError(500, 'internal_error', '') });
    renderApp('/admin/rules');
    await userEvent.click(within(await screen.findByTestId('rule-set-item')).getByRole('switch'));
    expect(await screen.findByText('Failed to update rule set activation. Please try again.')).toBeInTheDocument();
  });

  it('deletes a rule after the spec confirmation', async () => {
    const calls = api({ 'DELETE /api/rules/r-1': json(200, rule({ is_active: false })) });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Rule Poor control' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Rule' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete the rule "Poor control"? This action cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Rule "Poor control" has been successfully deleted.')).toBeInTheDocument();
    expect(screen.getByText('Rule Deleted')).toBeInTheDocument();
    expect(calls.callsTo('DELETE /api/rules/r-1')).toHaveLength(1);
  });

  it('a failed delete says so', async () => {
    api({ 'DELETE /api/rules/r-1': apiError(500, 'internal_error', '') });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Rule Poor control' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete rule. Please try again.')).toBeInTheDocument();
  });

  it('clones for real', async () => {
    const calls = api({ 'POST /api/rules/r-1/clone': json(201, rule({ id: 'r-2', name: 'Poor control (copy)' })) });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Clone Rule Poor control' }));
    expect(await screen.findByText('Rule "Poor control" has been cloned.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/rules/r-1/clone')).toHaveLength(1);
  });

  it('Test Rule opens the sandbox: answers in, outcome and trace out', async () => {
    const calls = api({
      'GET /api/rules/r-1/test-cases': json(200, []),
      'POST /api/rules/r-1/test': json(200, {
        rule_id: 'r-1',
        outcome: true,
        matched: true,
        trace: [
          {
            index: 0,
            group: 0,
            parameter: 'p-1',
            parameter_id: 'p-1',
            parameter_name: 'hba1c',
            operator: 'greater_than',
            canonical_operator: 'greater_than',
            threshold: 7,
            value: 8.2,
            result: true,
          },
        ],
        actions: [{ type: 'recommendation', severity: 'high', message: 'Intensify therapy' }],
      }),
    });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Test Rule Poor control' }));
    const dialog = await screen.findByRole('dialog', { name: 'Test Rule: Poor control' });
    await userEvent.type(within(dialog).getByLabelText('HbA1c (%)'), '8.2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Run Test' }));
    expect(await within(dialog).findByTestId('test-outcome')).toHaveTextContent('Match');
    expect(within(dialog).getByRole('table', { name: 'Trace' })).toHaveTextContent('HbA1c > 7');
    expect(within(dialog).getByText(/Intensify therapy/)).toBeInTheDocument();
    expect(calls.callsTo('POST /api/rules/r-1/test')[0].body).toEqual({ answers: { 'p-1': 8.2 } });
  });

  it('Templates tab: empty text; Use Template creates a rule set from a template', async () => {
    const template = ruleSet({ id: 'tpl', name: 'ADA 2025', is_template: true, rule_count: 4 });
    const calls = api({
      'GET /api/rule-sets/templates': json(200, [template]),
      'POST /api/rule-sets/from-template': json(201, ruleSet({ id: 'rs-2', name: 'ADA 2025' })),
    });
    renderApp('/admin/rules');
    await userEvent.click(await screen.findByRole('tab', { name: 'Templates' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Use Template ADA 2025' }));
    const dialog = await screen.findByRole('dialog', { name: 'Use Template' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Rule Set' }));
    expect(await screen.findByText('Rule set "ADA 2025" was created from the template.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/rule-sets/from-template')[0].body).toEqual({ template_id: 'tpl', name: 'ADA 2025' });
  });

  it('Templates tab: a shipped content pack says what it installs, and Use Template installs it', async () => {
    const pack = ruleSet({
      id: 'ada',
      name: 'ADA Standards of Care 2026 — diabetes, kidney and blood pressure',
      is_template: true,
      rule_count: 0,
      content_pack: { key: 'ada-2026', rule_count: 28, parameter_count: 20, vignette_count: 39 },
    });
    const calls = api({
      'GET /api/rule-sets/templates': json(200, [pack]),
      'POST /api/rule-sets/from-template': json(201, ruleSet({ id: 'rs-3', name: pack.name, rule_count: 28 })),
    });
    renderApp('/admin/rules');
    await userEvent.click(await screen.findByRole('tab', { name: 'Templates' }));
    expect(await screen.findByText('28 rules, 20 parameters, 39 vignettes')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: `Use Template ${pack.name}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Use Template' });
    expect(within(dialog).getByText(/parameters are created from the parameter templates/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Rule Set' }));
    expect(await screen.findByText(`Rule set "${pack.name}" was created from the template.`)).toBeInTheDocument();
    expect(calls.callsTo('POST /api/rule-sets/from-template')[0].body).toEqual({ template_id: 'ada', name: pack.name });
  });

  it('Analytics shows hit rates and the no-match rate', async () => {
    api({
      'GET /api/rule-sets/rs-1/analytics': json(200, {
        rule_set_id: 'rs-1',
        latest_version: 3,
        period: 'month',
        from: '2025-01-01T00:00:00.000Z',
        to: '2025-03-01T00:00:00.000Z',
        totals: {
          completed: 8,
          matched: 5,
          matched_by_other_sets: 1,
          no_match: 2,
          no_match_rate: 0.25,
          rules: [{ rule_id: 'r-1', rule_name: 'Poor control', matches: 5, share: 0.625 }],
        },
        periods: [
          {
            start: '2025-02-01T00:00:00.000Z',
            end: '2025-03-01T00:00:00.000Z',
            completed: 8,
            matched: 5,
            matched_by_other_sets: 1,
            no_match: 2,
            no_match_rate: 0.25,
            rules: [],
          },
        ],
        cds_feedback: [
          {
            rule_id: 'r-1',
            rule_name: 'Poor control',
            rule_version: 2,
            cards: 10,
            accepted: 3,
            overridden: 1,
            acceptance_rate: 0.75,
            override_rate: 0.25,
          },
        ],
      }),
    });
    renderApp('/admin/rules');
    await userEvent.click(await screen.findByRole('tab', { name: 'Analytics' }));
    expect(await screen.findByTestId('figure-No-match rate')).toHaveTextContent('25%');
    expect(screen.getByRole('table', { name: 'Hit rate by rule' })).toHaveTextContent('Poor control562.5%');
    expect(screen.getByText('Feb 1, 2025')).toBeInTheDocument();
    // EHR feedback on the CDS Hooks cards, per rule version.
    expect(screen.getByRole('table', { name: 'EHR feedback by rule version' })).toHaveTextContent('Poor controlv2103175%25%');
  });

  const check = {
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

  it('Publish shows the diff from the last published version', async () => {
    const calls = api({
      'GET /api/rule-sets/rs-1/diff': json(200, {
        rule_set_id: 'rs-1',
        from: { number: 3, draft: false, content_hash: 'x', published_at: '2025-02-01T10:00:00.000Z' },
        to: { number: null, draft: true, content_hash: 'y', published_at: null },
        has_changes: true,
        added: [{ id: 'r-9', name: 'New rule', priority: 0, conditions: [], actions: [] }],
        removed: [],
        changed: [{ id: 'r-1', name: 'Poor control', fields: ['conditions'], before: {}, after: {} }],
        unchanged: 2,
        parameters: { added: [], removed: [], changed: [] },
      }),
      'GET /api/rule-sets/rs-1/publish-check': json(200, check),
      'GET /api/rule-sets/rs-1/versions': json(200, []),
      'POST /api/rule-sets/rs-1/impact-preview': json(201, {
        id: 'ip-1',
        rule_set_id: 'rs-1',
        base_version: 3,
        groups: [{ key: 'generated', label: 'Generated patients', patients: 10000, changed: 0, transitions: [], more_transitions: 0 }],
      }),
      'POST /api/rule-sets/rs-1/publish': json(201, {
        id: 'v4',
        rule_set_id: 'rs-1',
        number: 4,
        name: 'Glycaemic control',
        rule_count: 2,
        published_by_email: null,
        published_at: '2025-03-01T10:00:00.000Z',
      }),
    });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Glycaemic control' });
    const diff = await within(dialog).findByTestId('publish-diff');
    expect(diff).toHaveTextContent('Compared with version 3');
    expect(within(diff).getByRole('region', { name: 'Rules added' })).toHaveTextContent('New rule');
    expect(within(diff).getByRole('region', { name: 'Rules changed' })).toHaveTextContent('Poor control: conditions');
    expect(diff).toHaveTextContent('2 rules unchanged.');
    await within(dialog).findByRole('region', { name: 'Impact preview' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Version 4 is now used by assessments.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/rule-sets/rs-1/publish')).toHaveLength(1);
  });

  it('Publish is disabled and the errors listed when analysis finds an error; warnings need a reason', async () => {
    const calls = api({
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
      }),
      'GET /api/rule-sets/rs-1/publish-check': json(200, {
        ...check,
        errors: [
          { code: 'no_conditions', severity: 'error', rule_ids: ['r-1'], message: 'Rule "Empty" has no conditions, so it can never fire.' },
        ],
        warnings: [{ code: 'no_actions', severity: 'warning', rule_ids: ['r-2'], message: 'Rule "Quiet" has no actions.' }],
      }),
      'GET /api/rule-sets/rs-1/versions': json(200, []),
    });
    renderApp('/admin/rules?rule_set_id=rs-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Glycaemic control' });
    const blocking = await within(dialog).findByRole('region', { name: 'Blocking errors' });
    expect(blocking).toHaveTextContent('Rule "Empty" has no conditions, so it can never fire.');
    expect(within(dialog).getByRole('region', { name: 'Warnings' })).toHaveTextContent('Rule "Quiet" has no actions.');
    expect(within(dialog).getByRole('button', { name: 'Publish' })).toBeDisabled();
    expect(calls.callsTo('POST /api/rule-sets/rs-1/publish')).toHaveLength(0);
  });
});
