import type { Page } from 'playwright-core';
import { screenshot, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import type { TestUser } from '../support/factories';
import { action, cond, createParameter, createPublishedRuleSet, runAssessment, uniqueName } from '../support/clinical-factories';
import { wordsBrokenInside } from '../support/phone';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

const PHONE = { width: 390, height: 844 };

/** Every page a role can open (spec section 2), each checked at phone width. */
const PAGES: Record<'anonymous' | 'none' | 'pcp' | 'admin', string[]> = {
  anonymous: ['/', '/auth', '/unauthorized', '/no/such/page', '/invite/not-a-real-token'],
  none: ['/dashboard', '/unauthorized'],
  pcp: ['/pcp', '/pcp/diagnostics', '/pcp/cases', '/pcp/settings', '/clinical-form', '/chatbot', '/dashboard'],
  admin: [
    '/admin',
    '/admin/users',
    '/admin/parameters',
    '/admin/rules',
    '/admin/approvals',
    '/admin/settings',
    '/clinical-form',
    '/chatbot',
    '/dashboard',
  ],
};

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('[role="progressbar"]'), undefined, { timeout: 10_000 }).catch(() => undefined);
}

async function overflow(page: Page) {
  return page.evaluate(() => ({
    scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    viewport: window.innerWidth,
  }));
}

async function pageFor(who: TestUser | null): Promise<Page> {
  const page = await browser.newPage();
  if (who) await signIn(page, t.url, who.email, who.password);
  await page.setViewportSize(PHONE);
  return page;
}

describe('at 390 px no page is wider than the viewport', () => {
  for (const role of Object.keys(PAGES) as Array<keyof typeof PAGES>) {
    it(`for ${role === 'none' ? 'a user without a role' : role === 'anonymous' ? 'an anonymous visitor' : `a ${role}`}`, async () => {
      const page = await pageFor(role === 'anonymous' ? null : cast[role]);
      const wide: string[] = [];
      for (const path of PAGES[role]) {
        await page.goto(`${t.url}${path}`);
        await settle(page);
        const o = await overflow(page);
        if (o.scrollWidth > o.viewport) wide.push(`${path} is ${o.scrollWidth} px`);
        await screenshot(page, `phone-${role}-${path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'landing'}`);
      }
      expect(wide).toEqual([]);
      await page.close();
    });
  }
});

describe('console navigation on a phone', () => {
  for (const [who, home, item, to] of [
    ['admin', '/admin', 'User Management', '/admin/users'],
    ['pcp', '/pcp', 'Case History', '/pcp/cases'],
  ] as const) {
    it(`the ${who} sidebar is a temporary drawer below md, opened from the header`, async () => {
      const page = await pageFor(cast[who]);
      await page.goto(`${t.url}${home}`);
      await settle(page);
      // No permanent 64 px rail: the page starts at the left edge.
      const main = await page.locator('main').first().boundingBox();
      expect(main!.x).toBe(0);
      expect(await page.getByRole('link', { name: item }).count()).toBe(0);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('link', { name: item }).waitFor();
      await page.waitForTimeout(400); // the drawer's slide-in
      await screenshot(page, `phone-${who}-drawer-open`);
      await page.getByRole('link', { name: item }).click();
      await page.waitForURL(`${t.url}${to}`);
      // Choosing a page closes the drawer.
      await page.getByRole('link', { name: item }).waitFor({ state: 'detached' });
      await page.close();
    });
  }

  it('at 1366 px the sidebar stays and still collapses to a rail', async () => {
    const page = await browser.newPage();
    await signIn(page, t.url, cast.admin.email, cast.admin.password);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${t.url}/admin`);
    await settle(page);
    await page.getByRole('link', { name: 'User Management' }).waitFor();
    await screenshot(page, 'desktop-admin-overview');
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await page.waitForFunction(() => document.querySelector('aside')!.getBoundingClientRect().width === 64);
    await page.close();
  });
});

describe('tables on a phone', () => {
  it('the rule analytics tables break between words, never inside one ("Obes / ity")', async () => {
    const sbp = await createParameter(t, cast.admin, { name: uniqueName('sbp'), display_name: 'Systolic Blood Pressure', units: 'mm[Hg]' });
    const { ruleSet: set } = await createPublishedRuleSet(
      t,
      cast.admin,
      [
        {
          name: 'Hypertensive crisis',
          priority: 50,
          conditions: [cond(sbp, '>=', 180)],
          actions: [action('Assess for end-organ damage now', { severity: 'critical' })],
        },
        { name: 'Obesity', priority: 5, conditions: [cond(sbp, '>=', 300)], actions: [action('Discuss weight management')] },
      ],
      { name: uniqueName('Phone analytics') },
    );
    await runAssessment(t, cast.pcp, { [sbp.id]: 192 });
    const page = await pageFor(cast.admin);
    await page.goto(`${t.url}/admin/rules?rule_set_id=${set.id}`);
    await settle(page);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    const panel = page.locator('#panel-analytics');
    await panel.getByRole('cell', { name: 'Hypertensive crisis' }).waitFor();
    await panel.getByRole('table', { name: /^By / }).waitFor();
    await screenshot(page, 'phone-admin-rule-analytics');
    const broken = await wordsBrokenInside(panel, 'th, td');
    expect(broken).toEqual([]);
    const o = await overflow(page);
    expect(o.scrollWidth).toBeLessThanOrEqual(o.viewport);
    await page.close();
  });
});
