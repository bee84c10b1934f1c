import type { Locator, Page } from 'playwright-core';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };
export const WIDTHS = [DESKTOP, PHONE] as const;

type Box = { x: number; y: number; width: number; height: number };
/** Whether two boxes (Playwright bounding boxes) share any area. */
export const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Waits until the page has loaded its data and shows no spinner. */
export async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('[role="progressbar"]'), undefined, { timeout: 10_000 }).catch(() => undefined);
}

/**
 * Reachable without sideways scrolling: scrolled into view vertically, the element lies wholly
 * inside the viewport's width, and neither the page nor any box around it scrolls sideways (a
 * 666 px table in a 356 px card that scrolls with no cue put the last column off-screen).
 */
export async function expectReachable(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const width = page.viewportSize()!.width;
  const found = await target.evaluate((el) => {
    const sideways: string[] = [];
    for (let n: HTMLElement | null = el.parentElement; n; n = n.parentElement) {
      if (n.scrollWidth > n.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(n).overflowX)) {
        sideways.push(`${n.tagName.toLowerCase()}.${[...n.classList].slice(0, 2).join('.')} ${n.scrollWidth}>${n.clientWidth}`);
      }
    }
    const doc = document.documentElement;
    return { sideways, pageWidth: Math.max(doc.scrollWidth, document.body.scrollWidth), scrollX: window.scrollX };
  });
  expect({
    inside: !!box && box.x >= 0 && box.x + box.width <= width + 0.5,
    sideways: found.sideways,
    pageWiderThanViewport: found.pageWidth > width,
    scrollX: found.scrollX,
  }).toEqual({ inside: true, sideways: [], pageWiderThanViewport: false, scrollX: 0 });
}

/** Words (between spaces and hyphens) inside `root` that the layout breaks across lines ("J o i n e d"). */
export async function wordsBrokenInside(root: Locator, selector: string): Promise<string[]> {
  return root.evaluate((el, sel) => {
    const out: string[] = [];
    for (const cell of el.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        // A hyphen is a fair place to wrap ("No-match"); a word is what lies between spaces and hyphens.
        for (const m of (n.textContent ?? '').matchAll(/[^\s-]+/g)) {
          const r = document.createRange();
          r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length);
          const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
          if (lines.size > 1) out.push(m[0]);
        }
      }
    }
    return out;
  }, selector);
}
