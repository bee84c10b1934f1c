import { screen, waitFor, within } from '@testing-library/react';
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

const DIABETES_VS = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.103.12.1001';
const HBA1C_VS = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.198.12.1013';
const ESSENTIAL_HYPERTENSION_VS = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.104.12.1011';
const OFFICE_VISIT_VS = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.101.12.1001';
const VALUE_SETS = [
  {
    url: DIABETES_VS,
    title: 'Diabetes',
    version: '20240117',
    code_count: 369,
    systems: ['http://hl7.org/fhir/sid/icd-10-cm', 'http://snomed.info/sct'],
    source: 'shipped',
  },
  {
    url: ESSENTIAL_HYPERTENSION_VS,
    title: 'Essential Hypertension',
    version: null,
    code_count: 17,
    systems: ['http://snomed.info/sct'],
    source: 'stored',
  },
  { url: HBA1C_VS, title: 'HbA1c Laboratory Test', version: null, code_count: 5, systems: ['http://loinc.org'], source: 'shipped' },
  { url: OFFICE_VISIT_VS, title: 'Office Visit', version: null, code_count: 13, systems: ['http://snomed.info/sct'], source: 'shipped' },
];
/** The shipped "Diagnosed diabetes" template's reading (issue 20). */
const DIAGNOSED_CRITERION = {
  resource_type: 'Condition',
  value_sets: [DIABETES_VS],
  statuses: ['active', 'recurrence', 'relapse'],
  window: { anchor: 'now', relation: 'overlaps' },
  take: 'exists',
};
const diagnosed = parameter({
  id: 'p-7',
  name: 'diabetes_diagnosed',
  display_name: 'Diagnosed diabetes',
  data_type: 'boolean',
  category: 'history',
  units: null,
  validation_rules: { criterion: DIAGNOSED_CRITERION },
});

function api(extra: Record<string, Handler> = {}) {
  return adminApiMock({
    'GET /api/value-sets': json(200, VALUE_SETS),
    'GET /api/parameters': listOf('parameters', [a1cDays, diagnosed]),
    'GET /api/parameters/templates': json(200, []),
    'GET /api/parameter-changes': listOf('parameter-changes', []),
    ...extra,
  });
}

async function choose(dialog: HTMLElement, select: string | RegExp, option: string | RegExp) {
  await userEvent.click(within(dialog).getByRole('combobox', { name: select }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

/** Pasted, not typed: quicker, and a UCUM unit's braces are not read as key names. */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

async function openEdit(p: { display_name: string } = a1cDays) {
  renderApp('/admin/parameters');
  await userEvent.click(await screen.findByRole('button', { name: `Edit ${p.display_name}` }));
  return screen.findByRole('dialog', { name: `Edit ${p.display_name}` });
}

async function openCustom(dataType: string) {
  renderApp('/admin/parameters');
  await userEvent.click(await screen.findByRole('button', { name: 'Create Parameter' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create Parameter' });
  await userEvent.click(within(dialog).getByRole('tab', { name: 'Custom Parameter' }));
  await fill(within(dialog).getByLabelText(/Parameter Name/), 'from_record');
  await fill(within(dialog).getByLabelText(/Display Name/), 'From the record');
  await choose(dialog, /Data Type/, dataType);
  await choose(dialog, /Category/, 'Medical History');
  await userEvent.click(within(dialog).getByRole('switch', { name: "Read from the patient's record" }));
  return dialog;
}

async function optionsOf(dialog: HTMLElement, select: string) {
  await userEvent.click(within(dialog).getByRole('combobox', { name: select }));
  const names = (await screen.findAllByRole('option')).map((o) => o.textContent);
  await userEvent.keyboard('{Escape}');
  return names;
}

const words = (dialog: HTMLElement) => within(dialog).getByRole('status', { name: 'Reading in words' });

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
    expect(within(dialog).getByText(/it is kept as it is/)).toHaveTextContent('Reads: Any of: Any visit (SNOMED CT 305336008)');
    await userEvent.type(within(dialog).getByLabelText('Description'), '.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeInTheDocument();
    expect(calls.callsTo('PUT /api/parameters/p-5')[0].body).not.toHaveProperty('validation_rules');
  });
});

describe('Read from the record: any kind of record, codes or value sets, statuses, the period', () => {
  it('Create binds a yes/no parameter to a diagnosis by value set, chosen by its title; the statuses and the window are sent', async () => {
    const calls = api({ 'POST /api/parameters': json(201, parameter({ id: 'p-9' })) });
    const dialog = await openCustom('Yes/No');
    // Turned on for a yes/no parameter, the reading starts at a take that fits it.
    expect(within(dialog).getByRole('combobox', { name: 'What is taken' })).toHaveTextContent('Any result');
    await choose(dialog, 'Kind of record', /^Diagnosis or problem/);
    // A diagnosis has no value, and a yes/no parameter takes whether: only "Any record" is offered.
    expect(await optionsOf(dialog, 'What is taken')).toEqual(['Any record']);
    expect(await optionsOf(dialog, 'Code system')).toEqual(['SNOMED CT', 'ICD-10-CM']);
    expect(within(dialog).queryByLabelText('Unit of the values (UCUM)')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Value sets' }));
    await userEvent.click(await screen.findByRole('option', { name: /^Diabetes 369 codes · ICD-10-CM, SNOMED CT · shipped/ }));
    for (const s of ['Inactive', 'Remission', 'Resolved']) await userEvent.click(within(dialog).getByRole('checkbox', { name: s }));
    await choose(dialog, 'A record counts when it', 'Overlaps (ongoing counts)');
    expect(words(dialog)).toHaveTextContent('Any diagnosis (value set “Diabetes”) with status active, recurrence or relapse');
    const create = within(dialog).getByRole('button', { name: 'Create Parameter' });
    expect(create).toBeEnabled();
    await userEvent.click(create);
    expect(await screen.findByText('Your custom parameter has been created successfully.')).toBeInTheDocument();
    expect((calls.callsTo('POST /api/parameters')[0].body as { validation_rules: unknown }).validation_rules).toEqual({
      criterion: DIAGNOSED_CRITERION,
    });
  });

  it('the takes follow the data type: a numeric parameter is not offered "Any result", a yes/no one no count', async () => {
    api();
    const dialog = await openCustom('Number');
    expect(await optionsOf(dialog, 'What is taken')).toEqual([
      'Latest value',
      'Lowest value on the latest day',
      'Number of results',
      'Number of different days',
      'Days a value has persisted',
    ]);
    await choose(dialog, 'Kind of record', /^Visit/);
    expect(await optionsOf(dialog, 'What is taken')).toEqual(['Number of records', 'Number of different days']);
    await choose(dialog, /Data Type/, 'Yes/No');
    expect(await optionsOf(dialog, 'What is taken')).toEqual(['Any record']);
    // The count chosen before no longer fits: said at the field, and Create is off.
    expect(within(dialog).getByRole('combobox', { name: 'What is taken' })).toHaveAccessibleDescription(
      "“Number of records” answers a number, but this parameter's answer is yes or no: choose another.",
    );
    expect(within(dialog).getByRole('button', { name: 'Create Parameter' })).toBeDisabled();
  });

  it('a text parameter is not read from the record: the switch is off and says why', async () => {
    api();
    renderApp('/admin/parameters');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Parameter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Parameter' });
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Custom Parameter' }));
    await choose(dialog, /Data Type/, 'Text');
    expect(within(dialog).getByRole('switch', { name: "Read from the patient's record" })).toBeDisabled();
    expect(within(dialog).getByText(/Only number and yes\/no parameters can be read from the record; this one is text/)).toBeVisible();
  });

  it('Edit shows the diagnosed-diabetes template in fields, not words; untouched it is not sent, a status changed is', async () => {
    const calls = api({ 'PUT /api/parameters/p-7': (req) => json(200, { ...diagnosed, ...(req.body as object), version: 3 }) });
    const dialog = await openEdit(diagnosed);
    expect(within(dialog).getByRole('combobox', { name: 'Kind of record' })).toHaveTextContent('Diagnosis or problem');
    expect(await within(dialog).findByRole('button', { name: 'Diabetes' })).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Resolved' })).not.toBeChecked();
    expect(within(dialog).getByRole('combobox', { name: 'A record counts when it' })).toHaveTextContent('Overlaps (ongoing counts)');
    await userEvent.type(within(dialog).getByLabelText('Description'), '.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeInTheDocument();
    expect(calls.callsTo('PUT /api/parameters/p-7')[0].body).not.toHaveProperty('validation_rules');

    const again = await openEdit(diagnosed);
    await userEvent.click(within(again).getByRole('checkbox', { name: 'Relapse' }));
    await userEvent.click(within(again).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls.callsTo('PUT /api/parameters/p-7')).toHaveLength(2));
    expect(calls.callsTo('PUT /api/parameters/p-7')[1].body).toEqual({
      validation_rules: { criterion: { ...DIAGNOSED_CRITERION, statuses: ['active', 'recurrence'] } },
    });
  });

  it('no status left is named at the statuses, and Save is off', async () => {
    api();
    const dialog = await openEdit(diagnosed);
    for (const s of ['Active', 'Recurrence', 'Relapse']) await userEvent.click(within(dialog).getByRole('checkbox', { name: s }));
    expect(within(dialog).getByText('Choose at least one status, or every record would be left out.')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  });

  it('an A1C by value set in the measurement period and the year before; codes are optional then', async () => {
    const calls = api({ 'POST /api/parameters': json(201, parameter({ id: 'p-9' })) });
    const dialog = await openCustom('Number');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Value sets' }));
    await userEvent.click(await screen.findByRole('option', { name: /^HbA1c Laboratory Test/ }));
    // Codes are optional once a value set is chosen.
    expect(within(dialog).getByLabelText(/LOINC codes/)).not.toBeRequired();
    await choose(dialog, 'When', 'In the measurement period');
    expect(within(dialog).queryByLabelText('Window, days back from now')).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Also the years before the period'), '1');
    expect(words(dialog)).toHaveTextContent(
      'Latest result (value set “HbA1c Laboratory Test”) in the measurement period or the year before',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Parameter' }));
    await screen.findByText('Your custom parameter has been created successfully.');
    expect((calls.callsTo('POST /api/parameters')[0].body as { validation_rules: unknown }).validation_rules).toEqual({
      criterion: {
        resource_type: 'Observation',
        value_sets: [HBA1C_VS],
        take: 'latest',
        window: { anchor: 'period', years_before: 1 },
      },
    });
  });

  it('age at the start of the measurement period is read from the Patient, and only age is offered', async () => {
    const calls = api({ 'POST /api/parameters': json(201, parameter({ id: 'p-9' })) });
    const dialog = await openCustom('Number');
    await choose(dialog, 'Kind of record', 'The patient (age)');
    expect(await optionsOf(dialog, 'What is taken')).toEqual(['Age in whole years']);
    expect(within(dialog).queryByLabelText(/codes/)).not.toBeInTheDocument();
    await choose(dialog, 'Age on', 'A day of the measurement period');
    await choose(dialog, 'Day of the period', 'Its first day');
    expect(words(dialog)).toHaveTextContent('Age at the start of the measurement period');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Parameter' }));
    await screen.findByText('Your custom parameter has been created successfully.');
    expect((calls.callsTo('POST /api/parameters')[0].body as { validation_rules: unknown }).validation_rules).toEqual({
      criterion: { resource_type: 'Patient', take: 'age', window: { anchor: 'period', at: 'start' } },
    });
  });

  it('a value set neither stored nor shipped is shown by its URL, with what that means', async () => {
    const missing = 'http://example.org/fhir/ValueSet/retinal-exam';
    api({
      'GET /api/parameters': listOf('parameters', [
        { ...diagnosed, validation_rules: { criterion: { ...DIAGNOSED_CRITERION, value_sets: [missing] } } },
      ]),
    });
    const dialog = await openEdit(diagnosed);
    expect(
      await within(dialog).findByText(`${missing}: neither stored nor shipped, so the reading stays unknown until it is loaded.`),
    ).toBeVisible();
    expect(words(dialog)).toHaveTextContent('Any diagnosis (a value set) with status active, recurrence or relapse');
  });

  it("the server's refusal of a take that is not the parameter's answer is shown at the take", async () => {
    const message =
      "exists answers yes or no, but the parameter's answer is a number: take one of latest, lowest_on_latest_day, count, distinct_days, days_persisting, age";
    api({
      'PUT /api/parameters/p-5': apiError(400, 'validation_failed', `validation_rules.criterion.take ${message}`, [
        { field: 'validation_rules.criterion.take', message },
      ]),
    });
    const dialog = await openEdit();
    const window = within(dialog).getByLabelText('Window, days back from now');
    await userEvent.clear(window);
    await userEvent.type(window, '400');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'What is taken' })).toHaveAccessibleDescription(
        "“Any result” answers yes or no, but this parameter's answer is a number: choose another.",
      ),
    );
  });
});
