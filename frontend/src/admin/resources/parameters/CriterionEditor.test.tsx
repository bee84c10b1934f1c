import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, renderApp, type Handler } from '../../../test/helpers';
import { adminApiMock, listOf } from '../../test/adminHelpers';
import { parameter } from '../../test/fixtures';

// Issue 20: the designer edits the criterion that reads a parameter from the patient's record.
const A1C_DAYS_CRITERION = {
  resource_type: 'Observation',
  codes: ['http://loinc.org|4548-4', 'http://loinc.org|17856-6', 'http://loinc.org|59261-8'],
  window: { anchor: 'now', days: 365 },
  take: 'distinct_days',
  where: { operator: '>=', value: 6.5 },
  unit: '%',
  units_accepted: [{ code: 'mmol/mol', factor: 0.0915, offset: 2.15 }],
};
const A1C_DAYS_RULES = {
  min: 0,
  max: 366,
  decimals: 0,
  source: { title: 'ADA Standards of Care 2026, section 2', url: 'https://diabetesjournals.org/care' },
  ranges: [
    { key: 'none', label: 'None', min: 0, max: 1 },
    { key: 'two_days_or_more', label: 'Two days or more', min: 2, max: 366 },
  ],
  units_accepted: [{ code: 'd', factor: 1 }],
  criterion: A1C_DAYS_CRITERION,
};
const a1cDays = parameter({
  id: 'p-5',
  name: 'a1c_diabetes_range_days',
  display_name: 'Days with A1C ≥ 6.5 % (12 months)',
  data_type: 'number',
  category: 'history',
  units: null,
  validation_rules: A1C_DAYS_RULES,
});

function api(extra: Record<string, Handler> = {}) {
  return adminApiMock({
    'GET /api/parameters': listOf('parameters', [a1cDays]),
    'GET /api/parameters/templates': json(200, []),
    'GET /api/parameter-changes': listOf('parameter-changes', []),
    ...extra,
  });
}

async function choose(dialog: HTMLElement, select: string | RegExp, option: string) {
  await userEvent.click(within(dialog).getByRole('combobox', { name: select }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

/** Pasted, not typed: quicker, and a UCUM unit's braces are not read as key names. */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

async function openEdit() {
  renderApp('/admin/parameters');
  await userEvent.click(await screen.findByRole('button', { name: `Edit ${a1cDays.display_name}` }));
  return screen.findByRole('dialog', { name: `Edit ${a1cDays.display_name}` });
}

describe('Read from the record, in the parameter dialogs', () => {
  it('Create sends the criterion the fields say, in validation_rules, and says it in words first', async () => {
    const calls = api({ 'POST /api/parameters': json(201, parameter({ id: 'p-9' })) });
    renderApp('/admin/parameters');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Parameter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Parameter' });
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Custom Parameter' }));
    await fill(within(dialog).getByLabelText(/Parameter Name/), 'egfr_low_days');
    await fill(within(dialog).getByLabelText(/Display Name/), 'Days eGFR < 60');
    await choose(dialog, /Data Type/, 'Number');
    await choose(dialog, /Category/, 'Laboratory');
    await userEvent.type(within(dialog).getByLabelText('Units (optional)'), 'd');

    await userEvent.click(within(dialog).getByRole('switch', { name: "Read from the patient's record" }));
    await fill(within(dialog).getByLabelText(/LOINC codes/), '98979-8, 62238-1');
    await choose(dialog, 'What is taken', 'Days a value has persisted');
    const create = within(dialog).getByRole('button', { name: 'Create Parameter' });
    // days_persisting needs the value that persists: said at the field, and Create says why it is off.
    expect(within(dialog).getByText(/needs the value that persists/)).toBeInTheDocument();
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription('Fix the reading from the record to create.');
    await userEvent.type(within(dialog).getByLabelText('Window, days back from now'), '730');
    await choose(dialog, 'Value that persists', '<');
    await userEvent.type(within(dialog).getByLabelText('Value'), '60');
    await fill(within(dialog).getByLabelText('Unit of the values (UCUM)'), 'mL/min/{1.73_m2}');
    expect(within(dialog).getByRole('status', { name: 'Reading in words' })).toHaveTextContent(
      'Days the result (LOINC 98979-8, 62238-1) has stayed < 60 mL/min/1.73 m²',
    );
    expect(create).toBeEnabled();
    await userEvent.click(create);
    expect(await screen.findByText('Your custom parameter has been created successfully.')).toBeInTheDocument();
    expect(calls.callsTo('POST /api/parameters')[0].body).toEqual({
      name: 'egfr_low_days',
      display_name: 'Days eGFR < 60',
      data_type: 'number',
      category: 'labs',
      is_required: true,
      units: 'd',
      validation_rules: {
        criterion: {
          resource_type: 'Observation',
          codes: ['http://loinc.org|98979-8', 'http://loinc.org|62238-1'],
          take: 'days_persisting',
          window: { anchor: 'now', days: 730 },
          where: { operator: '<', value: 60 },
          unit: 'mL/min/{1.73_m2}',
        },
      },
    });
  });

  it('a LOINC code with a wrong check digit is named at the field', async () => {
    api();
    renderApp('/admin/parameters');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Parameter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Parameter' });
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Custom Parameter' }));
    await userEvent.click(within(dialog).getByRole('switch', { name: "Read from the patient's record" }));
    await userEvent.type(within(dialog).getByLabelText(/LOINC codes/), '4548-5');
    expect(within(dialog).getByLabelText(/LOINC codes/)).toHaveAccessibleDescription(
      'LOINC code "4548-5" has a wrong check digit: the code for 4548 ends in -4. Check the code against loinc.org.',
    );
  });

  it('Edit shows the stored criterion; a changed window is sent with every other validation rule as it was', async () => {
    const calls = api({ 'PUT /api/parameters/p-5': (req) => json(200, { ...a1cDays, ...(req.body as object), version: 3 }) });
    const dialog = await openEdit();
    expect(within(dialog).getByRole('switch', { name: "Read from the patient's record" })).toBeChecked();
    expect(within(dialog).getByLabelText(/LOINC codes/)).toHaveValue('4548-4, 17856-6, 59261-8');
    expect(within(dialog).getByRole('combobox', { name: 'What is taken' })).toHaveTextContent('Number of different days');
    expect(within(dialog).getByLabelText('Unit of the values (UCUM)')).toHaveAccessibleDescription(
      'Empty: the parameter’s unit (none set). Also accepted, converted: mmol/mol',
    );
    const window = within(dialog).getByLabelText('Window, days back from now');
    await userEvent.clear(window);
    await userEvent.type(window, '730');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeInTheDocument();
    expect(calls.callsTo('PUT /api/parameters/p-5')[0].body).toEqual({
      validation_rules: { ...A1C_DAYS_RULES, criterion: { ...A1C_DAYS_CRITERION, window: { anchor: 'now', days: 730 } } },
    });
  });

  it('Edit leaves validation_rules out when the reading is untouched', async () => {
    const calls = api({ 'PUT /api/parameters/p-5': (req) => json(200, { ...a1cDays, ...(req.body as object), version: 3 }) });
    const dialog = await openEdit();
    await fill(within(dialog).getByLabelText('Description'), ' Two confirm diabetes.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeInTheDocument();
    expect(calls.callsTo('PUT /api/parameters/p-5')[0].body).toEqual({ description: 'Glycated haemoglobin Two confirm diabetes.' });
  });

  it('turning the reading off removes only the criterion', async () => {
    const calls = api({ 'PUT /api/parameters/p-5': (req) => json(200, { ...a1cDays, ...(req.body as object), version: 3 }) });
    const dialog = await openEdit();
    await userEvent.click(within(dialog).getByRole('switch', { name: "Read from the patient's record" }));
    expect(within(dialog).queryByLabelText(/LOINC codes/)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeInTheDocument();
    const { criterion: _gone, ...others } = A1C_DAYS_RULES;
    expect(calls.callsTo('PUT /api/parameters/p-5')[0].body).toEqual({ validation_rules: others });
  });

  it.each([
    ['-3', 'Must be a whole number of days, 0 to 36600.'],
    ['1.5', 'Must be a whole number of days, 0 to 36600.'],
    ['a year', 'Enter a whole number of days, or leave it empty for the whole record.'],
  ])('a window of %s days is named at the field, and Save is off with the reason next to it', async (days, problem) => {
    const calls = api();
    const dialog = await openEdit();
    const window = within(dialog).getByLabelText('Window, days back from now');
    await userEvent.clear(window);
    await userEvent.type(window, days);
    expect(window).toHaveAccessibleDescription(problem);
    const save = within(dialog).getByRole('button', { name: 'Save Changes' });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription(/Fix the reading from the record to save\./);
    expect(within(dialog).getByText(/Fix the reading from the record to save\./)).toBeVisible();
    await userEvent.clear(window);
    expect(save).toBeEnabled();
    expect(calls.callsTo('PUT /api/parameters/p-5')).toHaveLength(0);
  });

  it('a 400 naming a criterion field is shown at that field, until it is changed', async () => {
    const message = 'validation_rules.criterion.window.days must be a whole number of days, 0 to 36600';
    api({
      'PUT /api/parameters/p-5': apiError(400, 'validation_failed', message, [{ field: 'validation_rules', message }]),
    });
    const dialog = await openEdit();
    const window = within(dialog).getByLabelText('Window, days back from now');
    await userEvent.clear(window);
    await userEvent.type(window, '400');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await within(dialog).findByText(message);
    expect(window).toHaveAccessibleDescription('Must be a whole number of days, 0 to 36600.');
    await userEvent.type(window, '0');
    expect(window).toHaveAccessibleDescription('Empty: the whole record');
  });

  it('a criterion the fields cannot show is said in words and kept', async () => {
    const anyOf = { any_of: [{ resource_type: 'Encounter', codes: ['http://snomed.info/sct|305336008'], take: 'exists' }] };
    const calls = api({
      'GET /api/parameters': listOf('parameters', [{ ...a1cDays, validation_rules: { criterion: anyOf } }]),
      'PUT /api/parameters/p-5': (req) => json(200, { ...a1cDays, ...(req.body as object) }),
    });
    const dialog = await openEdit();
    expect(within(dialog).getByText(/written outside the console/)).toHaveTextContent('Reads: Any of: Any Encounter (SNOMED CT 305336008)');
    await userEvent.type(within(dialog).getByLabelText('Description'), '.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeInTheDocument();
    expect(calls.callsTo('PUT /api/parameters/p-5')[0].body).not.toHaveProperty('validation_rules');
  });
});
