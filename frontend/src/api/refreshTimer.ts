import { expiresInMs, type Session } from './session';

// docs/product-spec.md section 9: tick 30 s; refresh when 3 ticks (90 s) or fewer remain.
export const AUTO_REFRESH_TICK_MS = 30_000;
export const REFRESH_THRESHOLD_MS = 3 * AUTO_REFRESH_TICK_MS;

/** True when the session is within the refresh threshold of its expiry (or past it). */
export function isDueForRefresh(s: Session): boolean {
  return expiresInMs(s) <= REFRESH_THRESHOLD_MS;
}

/**
 * The automatic refresh: every tick, refresh when the session is due. Background tabs throttle
 * timers, so a tab that becomes visible again checks at once.
 */
export function createRefreshTimer(getSession: () => Session | null, refresh: () => Promise<unknown>) {
  let ticker: ReturnType<typeof setInterval> | null = null;
  let watchingVisibility = false;

  function tick() {
    const s = getSession();
    if (!s) return;
    if (isDueForRefresh(s)) {
      refresh().catch((e) => console.warn('Automatic session refresh failed', e));
    }
  }

  function onVisibility() {
    if (document.visibilityState === 'visible' && ticker) tick();
  }

  function watchVisibility() {
    if (watchingVisibility || typeof document === 'undefined') return;
    watchingVisibility = true;
    document.addEventListener('visibilitychange', onVisibility);
  }

  function stop() {
    if (ticker) clearInterval(ticker);
    ticker = null;
  }

  function start() {
    stop();
    ticker = setInterval(tick, AUTO_REFRESH_TICK_MS);
    tick();
  }

  return { start, stop, watchVisibility };
}
