import type { Page } from 'playwright-core';
import { screenshot, seriousA11yViolations, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { createUser, PASSWORD, uniqueEmail } from '../support/factories';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

async function expectAccessible(page: Page) {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto(`${t.url}/auth`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

describe('public pages', () => {
  it('the landing page shows the tagline, both buttons and the three audiences', async () => {
    const page = await browser.newPage();
    await page.goto(t.url);
    await page.getByText('Intelligent diabetes management system powered by AI-driven diagnostic rules').first().waitFor();
    await page
      .getByRole('link', { name: 'Get Started' })
      .or(page.getByRole('button', { name: 'Get Started' }))
      .first()
      .waitFor();
    await page.getByText(`© ${new Date().getFullYear()}`, { exact: false }).first().waitFor();
    await screenshot(page, 'landing');
    await expectAccessible(page);
    await page.close();
  });

  it('/auth has both tabs, the hint and Google; it is accessible', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/auth`);
    await page.getByRole('tab', { name: 'Sign In' }).waitFor();
    await page.getByRole('tab', { name: 'Sign Up' }).waitFor();
    await page.getByText('Need PCP access? Sign up first, then request access from your dashboard.').waitFor();
    await page.getByRole('button', { name: 'Continue with Google' }).waitFor();
    await screenshot(page, 'auth');
    await expectAccessible(page);
    await page.close();
  });

  it('an unknown path shows the 404 page with a link home', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/no/such/page`);
    await page.getByText('Oops! Page not found').waitFor();
    await screenshot(page, 'not-found');
    await expectAccessible(page);
    await page.getByRole('link', { name: /home/i }).click();
    await page.waitForURL(`${t.url}/`);
    await page.close();
  });

  it('wrong credentials show the server message in an alert', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email, 'not the right password');
    await page.getByRole('alert').filter({ hasText: 'Invalid login credentials' }).waitFor();
    await page.close();
  });
});

describe('from sign-up to the PCP console', () => {
  it('sign up, dashboard, request PCP access, approval by an admin, PCP console', async () => {
    const page = await browser.newPage();
    const email = uniqueEmail('newdoc');
    await page.goto(`${t.url}/auth`);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('First Name').fill('Maya');
    await form.getByLabel('Last Name').fill('Okafor');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: /sign up|create account/i }).click();
    await page.waitForURL(`${t.url}/dashboard`);
    await page.getByText('Account created successfully!').waitFor();
    await page.getByText('Maya Okafor').first().waitFor();
    await page.getByText('No Role Assigned').waitFor();
    await screenshot(page, 'dashboard-no-role');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Request PCP Access' }).click();
    await page.getByText('Your PCP access request has been submitted for review.').waitFor();

    const pending = await t
      .http()
      .get('/api/approvals')
      .query({ filter: JSON.stringify({ status: 'pending', q: email }) })
      .set(cast.admin.auth);
    expect(pending.body).toHaveLength(1);
    expect((await t.http().post(`/api/approvals/${pending.body[0].id}/approve`).set(cast.admin.auth)).status).toBe(200);

    await page.goto(t.url);
    await page.waitForURL(`${t.url}/pcp`);
    await page.getByText('PCP Console').first().waitFor();
    await screenshot(page, 'pcp-dashboard');
    await expectAccessible(page);
    await page.close();
  });
});

describe('role redirects and sign-out', () => {
  it('a user without a role is sent to /unauthorized from /admin and /clinical-form', async () => {
    const u = await createUser(t);
    const page = await browser.newPage();
    await signIn(page, u.email);
    await page.waitForURL(`${t.url}/dashboard`);
    await page.goto(`${t.url}/admin`);
    await page.waitForURL(`${t.url}/unauthorized`);
    await page
      .getByRole('button', { name: 'Sign In with Different Account' })
      .or(page.getByRole('link', { name: 'Sign In with Different Account' }))
      .first()
      .waitFor();
    await screenshot(page, 'unauthorized');
    await expectAccessible(page);
    await page.goto(`${t.url}/clinical-form`);
    await page.waitForURL(`${t.url}/unauthorized`);
    await page.close();
  });

  it('signed out, a protected page leads to /auth; signed in, an admin lands on /admin and a pcp on /pcp', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/dashboard`);
    await page.waitForURL(`${t.url}/auth`);
    await signIn(page, cast.admin.email);
    await page.waitForURL(/\/admin/);
    await page.close();
    const pcpPage = await browser.newPage();
    await signIn(pcpPage, cast.pcp.email);
    await pcpPage.waitForURL(`${t.url}/pcp`);
    await pcpPage.close();
  });

  it('Sign Out clears the session and returns to /auth; the old token no longer works', async () => {
    const u = await createUser(t);
    const page = await browser.newPage();
    await signIn(page, u.email);
    await page.waitForURL(`${t.url}/dashboard`);
    const token = await page.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith('cds.auth'))?.[1] ?? '');
    expect(token).toContain('access_token');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${t.url}/auth`);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('cds.auth')))).toEqual([]);
    const access = JSON.parse(token).access_token as string;
    expect((await t.http().get('/api/auth/user').set('Authorization', `Bearer ${access}`)).status).toBe(401);
    await page.close();
  });
});

describe('keyboard only', () => {
  it('signs in with Tab, typing and Enter, and reaches the console', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/auth`);
    const email = page.getByRole('form', { name: 'Sign in' }).getByLabel('Email');
    await email.waitFor();
    // Start from the page, not from a clicked field: Tab must reach the form in order.
    await page.keyboard.press('Tab');
    for (let i = 0; i < 15 && !(await email.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(cast.pcp.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${t.url}/pcp`);
    // The sidebar toggle and links are reachable and named.
    const focusable = await page.evaluate(() =>
      Array.from(document.querySelectorAll('a[href], button:not([disabled])'))
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => (el.getAttribute('aria-label') || (el as HTMLElement).innerText || '').trim()),
    );
    expect(focusable.filter((name) => name === '')).toEqual([]);
    await page.close();
  });
});
