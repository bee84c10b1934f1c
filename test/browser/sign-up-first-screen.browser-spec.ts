import type { Page } from 'playwright-core';
import { screenshot, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { PASSWORD, uniqueEmail } from '../support/factories';
import { expectReachable, overlaps, WIDTHS } from '../support/phone';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

async function signUpForm(page: Page) {
  await page.goto(`${t.url}/auth`);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  return page.getByRole('form', { name: 'Sign up' });
}

describe('the first screen after sign-up', () => {
  // 390 × 740 (a phone with its browser bars showing): the button sits where the stack would be.
  for (const { width, height } of [...WIDTHS, { width: 390, height: 740 }]) {
    it(`at ${width} × ${height} px: no toast covers "Request PCP Access" nor Sign Out, and the greeting uses the first name given`, async () => {
      const page = await browser.newPage();
      await page.setViewportSize({ width, height });
      const form = await signUpForm(page);
      await form.getByLabel('First Name').fill('Amara');
      await form.getByLabel('Last Name').fill('Okafor');
      await form.getByLabel('Email').fill(uniqueEmail('amara'));
      await form.getByLabel('Password').fill(PASSWORD);
      await form.getByRole('button', { name: 'Sign Up' }).click();
      await page.waitForURL(/\/dashboard$/);
      await page.getByRole('heading', { name: 'Welcome, Amara Okafor' }).waitFor();
      const toasts = page.getByTestId('toast');
      await toasts.filter({ hasText: 'Account created successfully!' }).waitFor();
      const action = page.getByRole('button', { name: 'Request PCP Access' });
      await action.waitFor();
      await page.waitForTimeout(100); // the stack settles where it covers nothing
      const covered: string[] = [];
      const a = (await action.boundingBox())!;
      const signOut = (await page.getByRole('button', { name: 'Sign Out' }).boundingBox())!;
      for (const toast of await toasts.all()) {
        const b = (await toast.boundingBox())!;
        if (overlaps(b, a)) covered.push(`Request PCP Access under ${await toast.textContent()}`);
        if (overlaps(b, signOut)) covered.push(`Sign Out under ${await toast.textContent()}`);
      }
      expect(covered).toEqual([]);
      await expectReachable(page, action);
      await screenshot(page, `sign-up-dashboard-${width}x${height}`);
      // The action works while the toast is still up.
      await action.click();
      await page.getByText('Your request is awaiting review by an administrator.').waitFor();
      await page.close();
    });
  }

  it('an invited PCP is greeted by the first name given, not the e-mail address', async () => {
    const email = uniqueEmail('invited');
    const inv = await t.http().post('/api/invitations').set(cast.admin.auth).send({ email, role: 'pcp' });
    expect(inv.status).toBe(201);
    for (const { width, height } of WIDTHS.slice(0, 1)) {
      const page = await browser.newPage();
      await page.setViewportSize({ width, height });
      await page.goto(inv.body.url.replace(/^https?:\/\/[^/]+/, t.url));
      await page.getByLabel('First Name').fill('Ines');
      await page.getByLabel('Last Name').fill('Moreau');
      await page.getByLabel(/^Password/).fill(PASSWORD);
      await page.getByLabel(/^Confirm password/).fill(PASSWORD);
      await page.getByRole('button', { name: 'Accept invitation' }).click();
      await page.waitForURL(`${t.url}/pcp`);
      await page.getByRole('heading', { name: 'Welcome back, Ines' }).waitFor();
      expect(await page.getByText(email).count()).toBe(0);
      await page.close();
    }
  });
});

describe('the sign-in and sign-up forms', () => {
  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: a 3-character password is flagged before anything is sent; an empty sign-in names only the fields the form has`, async () => {
      const page = await browser.newPage();
      await page.setViewportSize({ width, height });
      const signUps: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/auth/signup')) signUps.push(r.url());
      });
      const form = await signUpForm(page);
      await form.getByText('At least 10 characters.').waitFor();
      await form.getByLabel('Email').fill(uniqueEmail('short'));
      await form.getByLabel('Password').fill('abc');
      await form.getByRole('button', { name: 'Sign Up' }).click();
      const alert = page.getByRole('alert');
      await alert.filter({ hasText: 'Password must be at least 10 characters long' }).waitFor();
      expect(signUps).toEqual([]);
      await expectReachable(page, alert);
      await screenshot(page, `sign-up-short-password-${width}`);

      await page.getByRole('tab', { name: 'Sign In' }).click();
      const signInForm = page.getByRole('form', { name: 'Sign in' });
      await signInForm.getByLabel('Email').fill('');
      await signInForm.getByLabel('Password').fill('');
      await signInForm.getByRole('button', { name: 'Sign In' }).click();
      await alert.filter({ hasText: 'Enter your email and password.' }).waitFor();
      expect(await page.getByText(/phone/i).count()).toBe(0);
      await page.close();
    });
  }

  it('the server refuses a 3-character password too (weak_password, nothing created)', async () => {
    const res = await t
      .http()
      .post('/api/auth/signup')
      .send({ email: uniqueEmail('short'), password: 'abc' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'weak_password',
      details: expect.arrayContaining(['Password must be at least 10 characters long']),
    });
  });
});

describe('the landing page footer', () => {
  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: shows the current year's copyright, read from the clock (a browser set to 2031 shows 2031)`, async () => {
      const page = await browser.newPage();
      await page.setViewportSize({ width, height });
      await page.clock.setFixedTime(new Date('2031-06-01T12:00:00Z'));
      await page.goto(t.url);
      const footer = page.getByText(/^© \d{4} /);
      await expectReachable(page, footer);
      expect(await footer.textContent()).toMatch(/^© 2031 /);
      await page.close();
    });
  }
});
