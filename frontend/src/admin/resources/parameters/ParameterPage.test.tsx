import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, deferred, json, renderApp, type Handler } from '../../../test/helpers';
import { adminApiMock, listOf } from '../../test/adminHelpers';
import { parameter } from '../../test/fixtures';
import { changedFields, valuesOf } from './EditParameterDialog';

const hba1c = parameter({ validation_rules: { normal: { min: 4, max: 5.6 } } });
const abnormalDays = parameter({
  id: 'p-3',
  name: 'a1c_abnormal_days',
  display_name: 'Days with an abnormal A1C',
  data_type: 'number',
  units: null,
  validation_rules: {
    criterion: {
      resource_type: 'Observation',
      codes: ['http://loinc.org|4548-4'],
      window: { anchor: 'now', days: 365 },
      take: 'distinct_days',
      where: { operator: '>=', value: 6.5 },
      unit: '%',
    },
  },
});
const weight = parameter({
  id: 'p-2',
  name: 'Wt_lb',
  display_name: 'Weight',
  description: null,
  data_type: 'number',
  category: 'vitals',
  units: 'lb',
  is_required: false,
  version: 1,
});
const template = parameter({
  id: 't-1',
  name: 'fasting_glucose',
  display_name: 'Fasting Glucose',
  is_template: true,
  is_diabetes_specific: true,
  template_name: 'diabetes_fasting_glucose',
  units: 'mg/dL',
});
const general = parameter({
  id: 't-2',
  name: 'age',
  display_name: 'Age',
  is_template: true,
  category: 'demographics',
  data_type: 'number',
  units: 'years',
});

function api(extra: Record<string, Handler> = {}) {
  return adminApiMock({
    'GET /api/parameters': listOf('parameters', [hba1c, weight, template]),
    'GET /api/parameters/templates': json(200, [template, general]),
    'GET /api/parameter-changes': listOf('parameter-changes', []),
    ...extra,
  });
}

describe('Parameter Management', () => {
  it('a parameter read from the record by a criterion says how, in words', async () => {
    api({ 'GET /api/parameters': listOf('parameters', [abnormalDays]) });
    renderApp('/admin/parameters');
    const card = within((await screen.findAllByTestId('parameter-card'))[0]);
    expect(card.getByText('From the record')).toBeInTheDocument();
    expect(card.getByText('Days with a result (LOINC 4548-4) ≥ 6.5 % in the last 365 days')).toBeInTheDocument();
  });

  it('shows six skeleton cards while loading', async () => {
    const held = deferred<Response>();
    api({ 'GET /api/parameters': () => held.promise });
    renderApp('/admin/parameters');
    expect(await screen.findByRole('heading', { name: 'Parameter Management' })).toBeInTheDocument();
    expect(await screen.findAllByTestId('skeleton-card')).toHaveLength(6);
    held.resolve(listOf('parameters', []));
    expect(await screen.findByText('No parameters found')).toBeInTheDocument();
    // The next step: no parameters yet → the templates.
    await userEvent.click(screen.getByRole('button', { name: 'Browse Templates' }));
    expect(screen.getByRole('tab', { name: /Templates/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('tiles count parameters and templates; search and category narrow the grid; every badge shows', async () => {
    api();
    renderApp('/admin/parameters');
    expect(await screen.findByTestId('tile-labs')).toHaveTextContent('Laboratory1 parameter · 1 template');
    expect(screen.getByTestId('tile-demographics')).toHaveTextContent('0 parameters · 1 template');
    // Issue 10 item 17: templates are listed apart (Templates tab), not among the parameters.
    const cards = screen.getAllByTestId('parameter-card');
    expect(cards).toHaveLength(2);
    expect(screen.queryByRole('heading', { name: 'Fasting Glucose' })).not.toBeInTheDocument();
    const a1c = within(cards[0]);
    expect(a1c.getByRole('heading', { name: 'HbA1c' })).toBeInTheDocument();
    expect(a1c.getByText('Lab Range')).toBeInTheDocument();
    expect(a1c.getByText('Complex Rules')).toBeInTheDocument();
    expect(a1c.getByText('v2')).toBeInTheDocument();
    expect(a1c.getByText('Yes')).toBeInTheDocument();
    expect(a1c.getByText('“What is the HbA1c (%)?”')).toBeInTheDocument();
    const wt = within(cards[1]);
    expect(wt.getByText('vitals parameter')).toBeInTheDocument();
    expect(wt.getByText('No')).toBeInTheDocument();
    expect(wt.queryByText('Complex Rules')).not.toBeInTheDocument();

    await userEvent.type(screen.getByPlaceholderText('Search parameters...'), 'WT_');
    await waitFor(() => expect(screen.getAllByTestId('parameter-card')).toHaveLength(1));
    await userEvent.clear(screen.getByPlaceholderText('Search parameters...'));
    await waitFor(() => expect(screen.getAllByTestId('parameter-card')).toHaveLength(2));
    await userEvent.click(screen.getByRole('combobox', { name: 'Category' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Vital Signs' }));
    expect(screen.getAllByTestId('parameter-card')).toHaveLength(1);
    await userEvent.click(screen.getByRole('combobox', { name: 'Category' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Symptoms' }));
    expect(screen.getByText('No parameters found')).toBeInTheDocument();
    // A narrowed list offers to widen it.
    expect(screen.getByText('No parameter matches this search or category.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(screen.getAllByTestId('parameter-card')).toHaveLength(2);
    await userEvent.click(screen.getByRole('combobox', { name: 'Category' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Symptoms' }));
    await userEvent.click(screen.getByRole('tab', { name: /Templates/ }));
    expect(await screen.findByRole('heading', { name: 'Fasting Glucose' })).toBeInTheDocument();
  });

  it('custom parameter: Create stays disabled until the required fields are filled; a failure keeps the input', async () => {
    let fail = true;
    const calls = api({
      'POST /api/parameters': () =>
        fail ? apiError(409, 'conflict', 'A parameter with this name already exists.') : json(201, parameter({ id: 'p-9' })),
    });
    renderApp('/admin/parameters');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Parameter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Parameter' });
    expect(within(dialog).getByRole('tab', { name: 'From Template' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Custom Parameter' }));
    const create = within(dialog).getByRole('button', { name: 'Create Parameter' });
    expect(create).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/Parameter Name/), 'tsh');
    await userEvent.type(within(dialog).getByLabelText(/Display Name/), 'TSH');
    expect(within(dialog).getByRole('switch', { name: 'Required' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Data Type/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Number' }));
    expect(create).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Category/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Laboratory' }));
    expect(create).toBeEnabled();
    await userEvent.click(create);
    expect(await screen.findByText('Failed to create parameter. Please try again.')).toBeInTheDocument();
    expect(within(dialog).getByText('A parameter with this name already exists.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Parameter Name/)).toHaveValue('tsh');
    fail = false;
    await userEvent.click(create);
    expect(await screen.findByText('Your custom parameter has been created successfully.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/parameters').at(-1)!.body).toEqual({
      name: 'tsh',
      display_name: 'TSH',
      data_type: 'number',
      category: 'labs',
      is_required: true,
    });
  });

  it('from template: grouped, highlighted when chosen, enabled only then', async () => {
    const calls = api({ 'POST /api/parameters/from-template': json(201, parameter({ id: 'p-7' })) });
    renderApp('/admin/parameters');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Parameter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Parameter' });
    expect(
      within(within(dialog).getByRole('region', { name: 'Diabetes-Specific Templates' })).getByText('Fasting Glucose'),
    ).toBeInTheDocument();
    expect(within(within(dialog).getByRole('region', { name: 'General Templates' })).getByText('Age')).toBeInTheDocument();
    const go = within(dialog).getByRole('button', { name: 'Create from Template' });
    expect(go).toBeDisabled();
    const choice = within(dialog).getByRole('button', { name: /Fasting Glucose/ });
    await userEvent.click(choice);
    expect(choice).toHaveAttribute('aria-pressed', 'true');
    expect(go).toBeEnabled();
    await userEvent.click(go);
    expect(await screen.findByText('Parameter created from template successfully.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/parameters/from-template')[0].body).toEqual({ template_id: 't-1' });
  });

  it('seeds the diabetes templates with the spec toasts', async () => {
    let fail = false;
    api({
      'POST /api/parameters/templates/seed': () =>
        fail
          ? apiError(500, 'internal_error', 'boom')
          : json(200, { created: 6, message: 'Created 6 diabetes parameter templates.', templates: [] }),
    });
    renderApp('/admin/parameters');
    await userEvent.click(await screen.findByRole('tab', { name: 'Templates' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Diabetes Templates' }));
    expect(await screen.findByText('Created 6 diabetes parameter templates.')).toBeInTheDocument();
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: 'Create Diabetes Templates' }));
    expect(await screen.findByText('Failed to create diabetes templates. Some may already exist.')).toBeInTheDocument();
  });

  it('Edit sends only the changed fields, including a question override', async () => {
    const calls = api({ 'PUT /api/parameters/p-1': (req) => json(200, { ...hba1c, ...(req.body as object), version: 3 }) });
    renderApp('/admin/parameters');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit HbA1c' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit HbA1c' });
    expect(within(dialog).getByText('Polished (built-in wording)')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Question override (optional)'), 'Latest HbA1c?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeInTheDocument();
    expect(calls.callsTo('PUT /api/parameters/p-1')[0].body).toEqual({ question_override: 'Latest HbA1c?' });
  });

  it('Clone asks for a new name and creates the copy', async () => {
    const calls = api({ 'POST /api/parameters/p-2/clone': json(201, parameter({ id: 'p-3', display_name: 'Weight (copy)' })) });
    renderApp('/admin/parameters');
    await userEvent.click(await screen.findByRole('button', { name: 'Clone Weight' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clone Weight' });
    expect(within(dialog).getByLabelText(/Parameter Name/)).toHaveValue('Wt_lb_copy');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clone' }));
    expect(await screen.findByText('Parameter "Weight (copy)" has been created.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/parameters/p-2/clone')[0].body).toEqual({ name: 'Wt_lb_copy', display_name: 'Weight (copy)' });
  });

  it('Change History shows before/after and filters on the server', async () => {
    const calls = api({
      'GET /api/parameter-changes': (req) =>
        JSON.parse(req.query.get('filter')!).change_type === 'deleted'
          ? listOf('parameter-changes', [])
          : listOf('parameter-changes', [
              {
                id: 'c-1',
                parameter_id: 'p-1',
                parameter_name: 'hba1c',
                change_type: 'updated',
                old_values: { units: '%', version: 1 },
                new_values: { units: 'mmol/mol', version: 2 },
                changed_by: 'u',
                changed_by_email: 'admin@clinic.test',
                changed_at: '2025-03-02T10:00:00.000Z',
                change_reason: 'IFCC units',
              },
            ]),
    });
    renderApp('/admin/parameters');
    await userEvent.click(await screen.findByRole('tab', { name: 'Change History' }));
    expect(await screen.findByText('Reason: IFCC units')).toBeInTheDocument();
    expect(screen.getByLabelText('before: %')).toBeInTheDocument();
    expect(screen.getByLabelText('after: mmol/mol')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Change type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Deleted' }));
    expect(await screen.findByText('No changes found')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Period' }));
    await userEvent.click(await screen.findByRole('option', { name: 'This Week' }));
    await waitFor(() =>
      expect(calls.callsTo('GET /api/parameter-changes').some((c) => JSON.parse(c.query.get('filter')!).period === 'week')).toBe(true),
    );
  });
});

describe('changedFields', () => {
  it('keeps only differences, trimmed', () => {
    const before = valuesOf(hba1c);
    expect(changedFields(before, { ...before, units: ' mmol/mol ', description: before.description + ' ' })).toEqual({ units: 'mmol/mol' });
  });
});
