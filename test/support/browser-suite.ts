import { launchBrowser, type Browser } from './browser';
import { startTestApp, type TestApp } from './app';
import { createCast } from './factories';

export interface BrowserSuite {
  t: TestApp;
  browser: Browser;
  cast: Awaited<ReturnType<typeof createCast>>;
}

/**
 * The setup every browser suite shares: before the suite, the app, its cast of users and a browser
 * (handed to `assign` once all three exist); after it, the browser and the app are closed.
 */
export function browserSuite(assign: (s: BrowserSuite) => void): void {
  let s: Partial<BrowserSuite> = {};
  beforeAll(async () => {
    const t = await startTestApp();
    s = { t };
    const cast = await createCast(t);
    const browser = await launchBrowser();
    s = { t, cast, browser };
    assign({ t, cast, browser });
  });
  afterAll(async () => {
    await s.browser?.close();
    await s.t?.close();
  });
}
