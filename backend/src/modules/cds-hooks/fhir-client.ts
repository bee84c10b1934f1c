import { DomainError } from '../../common/errors';

/** Reading from the EHR's FHIR server: bounded in time and size, and failing one search, never the call. */

/** A FHIR server's answer for one search is bounded in time and size; over either, that input is set aside, not the call. */
export const FETCH_TIMEOUT_MS = 5000;
const FETCH_MAX_BYTES = 2 * 1024 * 1024;

/** A fetch from the EHR's FHIR server that gave no data for one key: only the inputs it carries are set aside. */
export class FetchFailed extends Error {}

/** What the EHR sent is its request (a wrong shape or patient is 400); what its server answered is one input, set aside. */
export function fetchFailure(e: unknown, fromServer: boolean): FetchFailed | null {
  if (e instanceof FetchFailed) return e;
  if (fromServer && e instanceof DomainError && e.code === 'invalid_prefetch')
    return new FetchFailed(`the FHIR server's answer is unusable (${e.message.replace(/^prefetch\.[^:]*: /, '')})`);
  return null;
}

/** An abort by AbortSignal.timeout (a DOMException, which may come from another realm than this code's Error). */
const timedOut = (e: unknown) => {
  const name = (x: unknown) => (typeof x === 'object' && x !== null ? (x as { name?: unknown }).name : undefined);
  return name(e) === 'TimeoutError' || name((e as { cause?: unknown } | null)?.cause) === 'TimeoutError';
};

/**
 * The response body as JSON, read at most FETCH_MAX_BYTES: the bytes are counted as they arrive, since
 * a Content-Length may be absent or wrong (chunked encoding), and the read stops at the bound.
 */
async function boundedJson(res: Response): Promise<unknown> {
  const tooLarge = () => new FetchFailed(`the FHIR server's answer is larger than ${FETCH_MAX_BYTES / (1024 * 1024)} MB`);
  if (Number(res.headers.get('content-length')) > FETCH_MAX_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const reader = res.body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      total += chunk.value.byteLength;
      if (total > FETCH_MAX_BYTES) {
        await reader!.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(chunk.value);
    }
  } catch (e) {
    if (e instanceof FetchFailed) throw e;
    throw new FetchFailed(
      timedOut(e) ? `the FHIR server did not answer within ${FETCH_TIMEOUT_MS / 1000} s` : 'the FHIR server broke off its answer',
    );
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new FetchFailed('the FHIR server sent something other than JSON');
  }
}

/** A search on the FHIR server with the token the EHR gave (never kept); what it answers is one input's data or a FetchFailed. */
export async function fetchFhir(fhirServer: string, accessToken: string | null, query: string): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/fhir+json' };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  let res: Response;
  try {
    res = await fetch(`${fhirServer}/${query}`, { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
  } catch (e) {
    throw new FetchFailed(
      timedOut(e) ? `the FHIR server did not answer within ${FETCH_TIMEOUT_MS / 1000} s` : 'the FHIR server could not be reached',
    );
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new FetchFailed(`the FHIR server answered ${res.status}`);
  }
  return boundedJson(res);
}
