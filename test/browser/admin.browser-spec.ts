import type { Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot as save, seriousA11yViolations, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { createFromTemplate } from '../support/clinical-factories';
import { createCast, createUser, PASSWORD, uniqueEmail } from '../support/factories';

/**
 * The admin console end to end, in one story on one instance: templates and parameters, a rule
 * designed and published, a PCP reaching it, access requests, invitations and analysis.
 */
let t: TestApp;
let browser: Browser;
let cast: Awaited<ReturnType<typeof createCast>>;
let admin: Page;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  browser = await launchBrowser();
  admin = await browser.newPage();
  await signIn(admin, cast.super_admin.email);
  await admin.waitForURL(`${t.url}/admin`);
});
// If Chromium went away, the story continues on a fresh signed-in page (the data lives on the server).
beforeEach(async () => {
  if (!admin.isClosed() && browser.browser.isConnected()) return;
  admin = await browser.newPage();
  await signIn(admin, cast.super_admin.email);
  await admin.waitForURL(`${t.url}/admin`);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto(`${t.url}/auth`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

/** A screenshot once transitions (dialog fades, tab indicators, ripples) have finished. */
async function screenshot(page: Page, name: string) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  await save(page, name);
}

async function expectAccessible(page: Page) {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

/** Opens an MUI select by its accessible name and picks an option. */
async function choose(scope: Page | Locator, label: string | RegExp, option: string | RegExp) {
  await scope.getByRole('combobox', { name: label }).click();
  await admin.getByRole('option', { name: option }).click();
}

async function toast(page: Page, text: string) {
  await page.getByTestId('toast').filter({ hasText: text }).first().waitFor();
}

describe('admin console', () => {
  it('the overview shows the figures, health and activity; the menu and Sign Out are there', async () => {
    await admin.getByRole('heading', { name: 'Welcome back, Test' }).waitFor();
    await admin.getByTestId('stat-total-users').filter({ hasText: '4' }).waitFor();
    await admin.getByText('Healthy').waitFor();
    await admin
      .getByText(/signed up/)
      .first()
      .waitFor();
    const menu = admin.getByRole('navigation', { name: 'Admin Console menu' });
    for (const item of [
      'Dashboard',
      'User Management',
      'Parameter Management',
      'Rule Designer',
      'Pending Approvals',
      'Clinical Form',
      'AI Chat Assistant',
      'Settings',
    ]) {
      await menu.getByRole('link', { name: item }).waitFor();
    }
    await screenshot(admin, 'admin-overview');
    await expectAccessible(admin);
  });

  it('1. an admin seeds the templates and creates a parameter from one', async () => {
    await admin.getByRole('link', { name: 'Parameter Management' }).click();
    await admin.getByRole('heading', { name: 'Parameter Management' }).waitFor();
    await admin.getByText('No parameters found').waitFor();
    await admin.getByRole('tab', { name: 'Templates' }).click();
    await admin.getByRole('button', { name: 'Create Diabetes Templates' }).click();
    // Issue 20: the spec's six and the 15 the ADA 2026 content pack reads (HbA1c (IFCC) among them).
    await toast(admin, 'Created 24 diabetes parameter templates.');
    await admin.getByRole('heading', { name: 'HbA1c', exact: true }).waitFor();
    await screenshot(admin, 'admin-parameters-templates');
    await expectAccessible(admin);

    await admin.getByRole('button', { name: 'Create Parameter', exact: true }).first().click();
    const dialog = admin.getByRole('dialog', { name: 'Create Parameter' });
    await dialog.getByRole('region', { name: 'Diabetes-Specific Templates' }).waitFor();
    const create = dialog.getByRole('button', { name: 'Create from Template' });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: /^HbA1c(?! \(IFCC\))/ }).click();
    await screenshot(admin, 'admin-parameters-create-dialog');
    await expectAccessible(admin);
    await create.click();
    await toast(admin, 'Parameter created from template successfully.');
    await dialog.waitFor({ state: 'hidden' });

    await admin.getByRole('tab', { name: 'Parameters' }).click();
    const card = admin
      .getByTestId('parameter-card')
      .filter({ has: admin.getByRole('heading', { name: 'HbA1c' }) })
      .filter({ hasNotText: 'Template' });
    await card.waitFor();
    await card.getByText('Complex Rules').waitFor();
    await admin.getByTestId('tile-labs').filter({ hasText: '1 parameter' }).waitFor();
    await screenshot(admin, 'admin-parameters');
    await expectAccessible(admin);

    const saved = await t
      .http()
      .get('/api/parameters')
      .query({ filter: JSON.stringify({ q: 'hba1c', is_template: false }) })
      .set(cast.admin.auth);
    expect(saved.body).toEqual([expect.objectContaining({ name: 'hba1c', is_template: false, version: 1, is_active: true })]);

    await admin.getByRole('tab', { name: 'Change History' }).click();
    await admin
      .getByText('Created from template "HbA1c"')
      .first()
      .waitFor()
      .catch(() => undefined);
    await admin.getByRole('list', { name: 'Parameter changes' }).waitFor();
    await screenshot(admin, 'admin-parameters-history');
    await expectAccessible(admin);
  });

  it('2. the admin designs a rule with two conditions and an action, checks the preview, saves and publishes', async () => {
    const templates = (await t.http().get('/api/parameters/templates').set(cast.admin.auth)).body as Array<{ id: string; name: string }>;
    await createFromTemplate(
      t,
      cast.admin,
      templates.find((p) => p.name === 'fasting_glucose')!,
    );

    await admin.getByRole('link', { name: 'Rule Designer' }).click();
    await admin.getByText('No rule sets found. Create your first rule set to get started.').waitFor();
    await admin.getByRole('button', { name: 'Create Rule', exact: true }).click();
    const setDialog = admin.getByRole('dialog', { name: 'Create Rule Set' });
    await setDialog.getByLabel('Rule Set Name').fill('Glycaemic control');
    await setDialog.getByLabel('Description').fill('Adults with type 2 diabetes');
    await setDialog.getByRole('button', { name: 'Create & Add Rule' }).click();
    await admin.getByRole('heading', { name: 'Create New Rule' }).waitFor();
    await toast(admin, 'Rule set created successfully.');

    await admin.getByLabel('Rule Name').fill('Uncontrolled diabetes');
    await admin.getByLabel('Description').fill('HbA1c and fasting glucose both above target');
    await admin.getByLabel('Priority').fill('50');
    await admin.getByRole('tab', { name: /Conditions/ }).click();
    await admin.getByRole('button', { name: 'Add Condition' }).click();
    const first = admin.getByTestId('condition-row').nth(0);
    await choose(first, 'Parameter', 'HbA1c (hba1c)');
    await choose(first, 'Operator', 'Greater Than');
    await first.getByLabel('Value').fill('9');
    await first.getByText('Units: %').waitFor();
    await admin.getByRole('button', { name: 'Add Condition' }).click();
    const second = admin.getByTestId('condition-row').nth(1);
    await choose(second, 'Parameter', 'Fasting Glucose (fasting_glucose)');
    await choose(second, 'Operator', 'Greater or Equal');
    await second.getByLabel('Value').fill('126');
    await first.getByRole('combobox', { name: 'Logic between condition 1 and 2' }).waitFor();

    await admin.getByRole('tab', { name: /Actions/ }).click();
    await admin.getByRole('button', { name: 'Add Action' }).click();
    const act = admin.getByTestId('action-row').nth(0);
    await choose(act, 'Severity', 'High');
    await act.getByLabel('Message').fill('Intensify glucose-lowering therapy and review in 3 months');

    const preview = admin.getByRole('figure', { name: 'Rule preview' });
    const node = (text: string) => preview.locator('.react-flow__node').filter({ hasText: text }).waitFor();
    await node('Uncontrolled diabetes');
    await node('HbA1c > 9 %');
    await node('Fasting Glucose ≥ 126 mg/dL');
    await node('Conditions Met?');
    await node('Intensify glucose-lowering therapy and review in 3...');
    await preview.locator('.react-flow__edge-text', { hasText: 'AND' }).waitFor();
    await preview.locator('.react-flow__edge-text', { hasText: 'Yes' }).waitFor();
    const box = await preview.boundingBox();
    expect(Math.round(box!.height)).toBe(24 * 16);
    await admin.getByRole('region', { name: 'Analysis' }).getByText('No findings for this rule.').waitFor();
    await screenshot(admin, 'admin-rule-designer');
    await expectAccessible(admin);

    await admin.getByRole('button', { name: 'Save Rule' }).click();
    await admin.waitForURL(/\/admin\/rules\?rule_set_id=/);
    await toast(admin, 'Rule created successfully.');
    await admin.getByTestId('rule-item').filter({ hasText: 'Uncontrolled diabetes' }).getByText('Priority: 50').waitFor();

    await admin.getByRole('button', { name: 'Publish' }).click();
    const publish = admin.getByRole('dialog', { name: 'Publish Glycaemic control' });
    await publish.getByText('This will be the first published version.').waitFor();
    await publish.getByRole('region', { name: 'Rules added' }).getByText('Uncontrolled diabetes').waitFor();
    await screenshot(admin, 'admin-rules-publish-diff');
    await expectAccessible(admin);
    await publish.getByRole('button', { name: 'Publish' }).click();
    await toast(admin, 'Version 1 is now used by assessments.');
    await admin.getByTestId('rule-set-item').getByText('Published').waitFor();
    await admin.getByTestId('rule-set-item').getByText('v1').waitFor();
    await screenshot(admin, 'admin-rules');
    await expectAccessible(admin);

    const sets = await t.http().get('/api/rule-sets').set(cast.admin.auth);
    expect(sets.body[0]).toMatchObject({ name: 'Glycaemic control', is_published: true, version: 1 });
  });

  it('the sandbox runs the saved rule: answers in, outcome and trace out', async () => {
    await admin.getByRole('button', { name: 'Test Rule Uncontrolled diabetes' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Test Rule: Uncontrolled diabetes' });
    await dialog.getByLabel('HbA1c (%)').fill('10.2');
    await dialog.getByLabel('Fasting Glucose (mg/dL)').fill('140');
    await dialog.getByRole('button', { name: 'Run Test' }).click();
    await dialog.getByTestId('test-outcome').filter({ hasText: 'Match' }).waitFor();
    await dialog.getByRole('table', { name: 'Trace' }).waitFor();
    await dialog.getByRole('button', { name: 'Save answers as test case' }).click();
    await dialog.getByLabel('Test case name').fill('Both above target');
    await dialog.getByRole('button', { name: 'Save test case' }).click();
    await dialog.getByRole('table', { name: 'Saved test cases' }).getByText('Passes').waitFor();
    await screenshot(admin, 'admin-rule-sandbox');
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('3. a PCP’s Clinical Assessment reaches that rule’s recommendation', async () => {
    const pcp = await browser.newPage();
    await signIn(pcp, cast.pcp.email);
    await pcp.waitForURL(`${t.url}/pcp`);
    await pcp.goto(`${t.url}/clinical-form`);
    await pcp.getByRole('button', { name: 'Start Assessment' }).click();
    // Issue 9: bands partition the line at the rule's cut-points ("> 9" puts 9 in the lower band).
    await pcp.getByRole('button', { name: 'HbA1c > 9 %', exact: true }).click();
    await pcp.getByRole('button', { name: 'Fasting Glucose ≥ 126 mg/dL', exact: true }).click();
    await pcp.getByText('Uncontrolled diabetes').first().waitFor();
    await pcp.getByText('Intensify glucose-lowering therapy and review in 3 months').first().waitFor();
    await screenshot(pcp, 'admin-flow-pcp-recommendation');
    await pcp.close();
  });

  it('the Analytics tab shows the real hit rate and no-match rate', async () => {
    await admin.getByRole('tab', { name: 'Analytics' }).click();
    await admin.getByTestId('figure-Assessments').filter({ hasText: '1' }).waitFor();
    await admin.getByRole('table', { name: 'Hit rate by rule' }).getByText('100%').waitFor();
    await admin.getByTestId('figure-No-match rate').filter({ hasText: '0%' }).waitFor();
    await screenshot(admin, 'admin-rules-analytics');
    await expectAccessible(admin);
  });

  it('5. a broken rule shows its analysis finding', async () => {
    await admin.getByRole('tab', { name: 'Rule Sets' }).click();
    await admin.getByRole('button', { name: 'Add Rule to Glycaemic control' }).click();
    await admin.getByRole('heading', { name: 'Create New Rule' }).waitFor();
    await admin.getByLabel('Rule Name').fill('Impossible HbA1c');
    await admin.getByRole('tab', { name: /Conditions/ }).click();
    for (const [op, value] of [
      ['Greater Than', '9'],
      ['Less Than', '5'],
    ] as const) {
      await admin.getByRole('button', { name: 'Add Condition' }).click();
      const row = admin.getByTestId('condition-row').last();
      await choose(row, 'Parameter', 'HbA1c (hba1c)');
      await choose(row, 'Operator', op);
      await row.getByLabel('Value').fill(value);
    }
    const finding = admin
      .getByRole('region', { name: 'Analysis' })
      .getByTestId('finding')
      .filter({ hasText: 'Rule "Impossible HbA1c" can never fire' });
    await finding.waitFor();
    await finding.getByText('Error').waitFor();
    await screenshot(admin, 'admin-rule-designer-finding');
    // Leaving with unsaved changes asks first.
    admin.once('dialog', (d) => void d.accept());
    await admin.getByRole('button', { name: 'Back to Rules' }).click();
    await admin.waitForURL(/\/admin\/rules\?rule_set_id=/);
  });

  it('4. approving a request changes the user’s role', async () => {
    const applicant = await createUser(t, null, { first_name: 'Nia', last_name: 'Okoro' });
    expect((await t.http().post('/api/me/access-requests').set(applicant.auth).send({ requested_role: 'pcp' })).status).toBe(201);
    await admin.goto(`${t.url}/admin/approvals`);
    await admin.getByRole('heading', { name: 'PCP Access Requests' }).waitFor();
    await admin.getByText('No pending admin access requests at this time.').waitFor();
    await admin.getByText('Nia Okoro').waitFor();
    await screenshot(admin, 'admin-approvals');
    await expectAccessible(admin);
    await admin.getByRole('button', { name: `Approve ${applicant.email}` }).click();
    await admin.getByRole('dialog', { name: 'Approve access request' }).getByRole('button', { name: 'Approve' }).click();
    await toast(admin, `${applicant.email} now has Primary Care Provider access.`);
    await admin.getByText('No pending PCP access requests at this time.').waitFor();
    const user = await t.http().get(`/api/users/${applicant.id}`).set(cast.admin.auth);
    expect(user.body.role).toBe('pcp');
  });

  it('User Management: search, a real role change, and an invitation link that lets someone join', async () => {
    await admin.getByRole('link', { name: 'User Management' }).click();
    await admin.getByRole('heading', { name: 'User Management' }).waitFor();
    await admin.getByText('Manage user accounts, roles, and permissions.').waitFor();
    await admin.getByPlaceholder('Search users by email or name...').fill('Okoro');
    const row = admin.getByRole('row').filter({ hasText: 'Nia Okoro' });
    await row.waitFor();
    await admin.getByRole('row').filter({ hasText: cast.pcp.email }).waitFor({ state: 'detached' });
    await screenshot(admin, 'admin-users');
    await expectAccessible(admin);
    await choose(row, /Change role of/, 'No role');
    await admin.getByRole('dialog', { name: 'Change role' }).getByRole('button', { name: 'Change role' }).click();
    await toast(admin, 'no longer has a role.');
    await row.getByText('No Role Assigned').waitFor();

    const email = uniqueEmail('invitee');
    await admin.getByRole('button', { name: 'Invite User' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Invite User' });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await dialog.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{40,}$/);
    await screenshot(admin, 'admin-users-invite');
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await admin.getByRole('list', { name: 'Pending invitations' }).getByText(email, { exact: false }).waitFor();

    const invitee = await browser.newPage();
    expect(link.startsWith(`${t.url}/invite/`)).toBe(true);
    await invitee.goto(link);
    await invitee.getByRole('heading', { name: "You're invited" }).waitFor();
    await invitee.getByLabel('First Name').fill('Ines');
    await invitee.getByLabel('Last Name').fill('Moreau');
    await invitee.getByLabel(/^Password/).fill('password1234');
    await invitee.getByLabel(/^Confirm password/).fill('password1234');
    await invitee.getByRole('button', { name: 'Accept invitation' }).click();
    await invitee.getByText('Password is too common').waitFor();
    expect(await invitee.getByLabel('First Name').inputValue()).toBe('Ines');
    await screenshot(invitee, 'invite-weak-password');
    await expectAccessible(invitee);
    await invitee.getByLabel(/^Password/).fill(PASSWORD);
    await invitee.getByLabel(/^Confirm password/).fill(PASSWORD);
    await invitee.getByRole('button', { name: 'Accept invitation' }).click();
    await invitee.waitForURL(`${t.url}/pcp`);
    await invitee.close();
    const joined = await t
      .http()
      .get('/api/users')
      .query({ filter: JSON.stringify({ q: email }) })
      .set(cast.admin.auth);
    expect(joined.body[0]).toMatchObject({ email, role: 'pcp', first_name: 'Ines' });
  });

  it('Settings shows the mode, version and the polishing queue', async () => {
    await admin.getByRole('link', { name: 'Settings' }).click();
    await admin
      .getByRole('region', { name: 'Instance' })
      .getByText(/Embedded|External PostgreSQL/)
      .waitFor();
    await admin.getByRole('region', { name: 'Question polishing' }).getByText('Queue driver').waitFor();
    expect(await admin.getByText('Coming Soon').count()).toBe(0);
    await screenshot(admin, 'admin-settings');
    await expectAccessible(admin);
  });

  it('the sidebar collapses to 4 rem and expands to 16 rem', async () => {
    const aside = admin.getByRole('complementary', { name: 'Admin Console sidebar' });
    expect(Math.round((await aside.boundingBox())!.width)).toBe(256);
    await admin.getByRole('button', { name: 'Collapse sidebar' }).click();
    await admin.waitForFunction(() => Math.round(document.querySelector('aside')!.getBoundingClientRect().width) === 64);
    await screenshot(admin, 'admin-sidebar-collapsed');
    await admin.getByRole('button', { name: 'Expand sidebar' }).click();
  });
});
