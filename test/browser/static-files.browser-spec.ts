import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { FRONTEND_DIST } from '../../backend/src/app';
import { signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

const entryScript = () => /src="\/(assets\/index-[^"]+\.js)"/.exec(readFileSync(join(FRONTEND_DIST, 'index.html'), 'utf8'))![1];

describe('static files', () => {
  it('a hashed asset is sent pre-compressed (brotli, else gzip) and cached as immutable', async () => {
    const asset = entryScript();
    const raw = readFileSync(join(FRONTEND_DIST, asset));

    const br = await t.http().get(`/${asset}`).set('Accept-Encoding', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(readFileSync(join(FRONTEND_DIST, `${asset}.br`)).length);
    expect(Number(br.headers['content-length'])).toBeLessThan(raw.length / 2);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.text).toBe(raw.toString('utf8'));

    const gz = await t.http().get(`/${asset}`).set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(raw.toString('utf8'));

    const plain = await t.http().get(`/${asset}`).set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(raw.length);

    // br;q=0 means "not brotli".
    const refused = await t.http().get(`/${asset}`).set('Accept-Encoding', 'br;q=0, gzip');
    expect(refused.headers['content-encoding']).toBe('gzip');
  });

  it('index.html (and every client route) revalidates on each load; a missing asset is a 404, not HTML', async () => {
    for (const path of ['/', '/auth', '/dashboard', '/admin/users']) {
      const res = await t.http().get(path).set('Accept-Encoding', 'br');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
    }
    expect((await t.http().get('/assets/index-doesnotexist.js')).status).toBe(404);
    expect((await t.http().get('/.vite/manifest.json')).headers['content-type']).toMatch(/text\/html/);
    expect((await t.http().get('/api/no-such-route')).status).toBe(404);
  });

  it('every built script and style sheet over 1 kB has its .br and .gz (tiny ones may not shrink)', () => {
    const files = readdirSync(join(FRONTEND_DIST, 'assets')).filter(
      (f) => /\.(js|css)$/.test(f) && statSync(join(FRONTEND_DIST, 'assets', f)).size > 1024,
    );
    const all = new Set(readdirSync(join(FRONTEND_DIST, 'assets')));
    expect(files.filter((f) => !all.has(`${f}.br`) || !all.has(`${f}.gz`))).toEqual([]);
  });

  it('bytes transferred per route are the compressed size (figures for docs/benchmarks.md)', async () => {
    const measure = async (page: Page, path: string) => {
      const sizes: Array<{ url: string; transferred: number; decoded: number }> = [];
      const onDone = async (req: import('playwright-core').Request) => {
        const res = await req.response();
        if (!res || !req.url().startsWith(t.url) || req.url().includes('/api/')) return;
        const s = await req.sizes();
        sizes.push({ url: req.url(), transferred: s.responseBodySize + s.responseHeadersSize, decoded: (await res.body()).length });
      };
      page.on('requestfinished', onDone);
      await page.goto(`${t.url}${path}`, { waitUntil: 'networkidle' });
      page.off('requestfinished', onDone);
      return {
        requests: sizes.length,
        transferred: sizes.reduce((a, s) => a + s.transferred, 0),
        decoded: sizes.reduce((a, s) => a + s.decoded, 0),
      };
    };
    const rows: string[] = [];
    for (const path of ['/', '/auth']) {
      const anon = await browser.newPage();
      const m = await measure(anon, path);
      rows.push(`| ${path} | anonymous | ${m.requests} | ${(m.transferred / 1024).toFixed(1)} kB | ${(m.decoded / 1024).toFixed(1)} kB |`);
      expect(m.transferred).toBeLessThan(m.decoded / 2);
      await anon.close();
    }
    for (const [path, who] of [
      ['/dashboard', cast.none],
      ['/admin', cast.admin],
    ] as const) {
      const page = await browser.newPage();
      await signIn(page, t.url, who.email, who.password);
      await page.goto('about:blank');
      // A fresh context has an empty cache; sign-in loaded some chunks, so start from a new page's cache.
      await page.context().clearCookies();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.clearBrowserCache');
      const m = await measure(page, path);
      rows.push(
        `| ${path} | ${who === cast.admin ? 'admin' : 'no role'} | ${m.requests} | ${(m.transferred / 1024).toFixed(1)} kB | ${(m.decoded / 1024).toFixed(1)} kB |`,
      );
      expect(m.transferred).toBeLessThan(m.decoded / 2);
      await page.close();
    }
    process.stdout.write(
      ['| Route | Signed in as | Requests | Transferred | Decoded |', '|---|---|---:|---:|---:|', ...rows].join('\n') + '\n',
    );
  });
});
