import { randomBytes, timingSafeEqual } from 'node:crypto';
import { clearCookie, setCookie } from '../../http/respond';

/** The request passport hands the store; GoogleAuthGuard gives it `res` on every adapter. */
type Request = { headers: { cookie?: string }; res?: unknown };

const COOKIE = 'cds_oauth_state';

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/**
 * OAuth `state` bound to a short-lived cookie of the browser that started the flow,
 * so a callback forged by another site (login CSRF) is refused. No server session needed.
 */
export class CookieStateStore {
  constructor(private readonly secure: boolean) {}

  store(req: Request, _meta: unknown, cb: (err: Error | null, state?: string) => void) {
    const state = randomBytes(24).toString('base64url');
    if (req.res)
      setCookie(req.res, COOKIE, state, {
        httpOnly: true,
        sameSite: 'lax',
        secure: this.secure,
        path: '/api/auth/google',
        maxAge: 10 * 60 * 1000,
      });
    cb(null, state);
  }

  verify(req: Request, state: string, _meta: unknown, cb: (err: Error | null, ok: boolean, info?: { message: string }) => void) {
    const expected = readCookie(req, COOKIE);
    if (req.res) clearCookie(req.res, COOKIE, { path: '/api/auth/google' });
    const ok =
      !!expected &&
      typeof state === 'string' &&
      expected.length === state.length &&
      timingSafeEqual(Buffer.from(expected), Buffer.from(state));
    cb(null, ok, ok ? undefined : { message: 'Invalid authorization request state' });
  }
}
