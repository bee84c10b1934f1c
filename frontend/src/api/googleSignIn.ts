import { NetworkError } from './errors';
import { apiErrorOf, readBody } from './jsonRequest';

export const GOOGLE_SIGN_IN_URL = '/api/auth/google';

/**
 * Google sign-in. The server answers the GET with a redirect to Google, or 501
 * oauth_not_configured; ask first so the clinician sees the reason instead of a JSON page.
 */
export async function signInWithGoogle(doFetch: typeof fetch, navigate: (url: string) => void): Promise<void> {
  let res: Response;
  try {
    res = await doFetch(GOOGLE_SIGN_IN_URL, {
      method: 'GET',
      redirect: 'manual',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
  } catch (e) {
    throw new NetworkError(e);
  }
  const redirected = res.type === 'opaqueredirect' || res.status === 0 || (res.status >= 300 && res.status < 400);
  if (!redirected && !res.ok) {
    const { json } = await readBody(res);
    throw apiErrorOf(res, json);
  }
  navigate(GOOGLE_SIGN_IN_URL);
}
