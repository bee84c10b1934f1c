import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { executablePath, launchBrowser, SCRATCH_SCREENSHOTS, screenshot, SCREENSHOTS, SYSTEM_CHROMIUMS } from '../support/browser';

// A machine with nothing but Node and npm: no CHROMIUM_PATH, no /usr/bin/chromium.
describe('browser tests on a machine without a system Chromium', () => {
  const saved = { path: process.env.CHROMIUM_PATH, skip: process.env.CDS_BROWSER_SKIP_SYSTEM, shots: process.env.SCREENSHOTS };
  beforeEach(() => {
    delete process.env.CHROMIUM_PATH;
    process.env.CDS_BROWSER_SKIP_SYSTEM = '1';
  });
  afterEach(() => {
    for (const [k, v] of [
      ['CHROMIUM_PATH', saved.path],
      ['CDS_BROWSER_SKIP_SYSTEM', saved.skip],
      ['SCREENSHOTS', saved.shots],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('falls back to the Chromium the npm package ships, and it renders a page', async () => {
    const exe = await executablePath();
    expect(SYSTEM_CHROMIUMS).not.toContain(exe.path);
    expect(existsSync(exe.path)).toBe(true);
    const browser = await chromium.launch({ executablePath: exe.path, headless: true, args: exe.args });
    try {
      const page = await browser.newPage();
      await page.setContent('<h1>fresh machine</h1>');
      expect(await page.textContent('h1')).toBe('fresh machine');
    } finally {
      await browser.close();
    }
  });

  it('CHROMIUM_PATH still wins when it is set', async () => {
    const packaged = (await executablePath()).path;
    process.env.CHROMIUM_PATH = packaged;
    delete process.env.CDS_BROWSER_SKIP_SYSTEM;
    expect((await executablePath()).path).toBe(packaged);
  });

  it('a test run writes screenshots to the ignored folder, not over the tracked ones', async () => {
    delete process.env.SCREENSHOTS;
    const name = 'fresh-machine-probe';
    rmSync(join(SCRATCH_SCREENSHOTS, `${name}.png`), { force: true });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setContent('<p>probe</p>');
      await screenshot(page, name);
    } finally {
      await browser.close();
    }
    expect(statSync(join(SCRATCH_SCREENSHOTS, `${name}.png`)).size).toBeGreaterThan(0);
    expect(existsSync(join(SCREENSHOTS, `${name}.png`))).toBe(false);
  });
});
