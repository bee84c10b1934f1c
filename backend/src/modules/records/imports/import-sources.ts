/**
 * Where `$import` may fetch from: a URL under one of the allow-listed FHIR base URLs (IMPORT_ALLOWED_BASES),
 * same scheme, host and port, its path at or below the base's. Checked before anything is fetched, and
 * again for every redirect, so an import cannot be pointed (or bounced) at internal addresses.
 */
export function isAllowedSource(url: string, bases: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) return false;
  return bases.some((b) => {
    let base: URL;
    try {
      base = new URL(b);
    } catch {
      return false;
    }
    const root = base.pathname.replace(/\/+$/, '');
    return base.origin === u.origin && (u.pathname === root || u.pathname.startsWith(`${root}/`));
  });
}

/** An input that cannot be read: the import fails for good (fetching again would not help). */
export class ImportSourceError extends Error {
  override name = 'ImportSourceError';
}

const MAX_REDIRECTS = 5;

/**
 * The NDJSON at `url`, at most `maxBytes`. Redirects are followed only to allow-listed URLs; an answer other
 * than 2xx, an unreachable server or a larger body is an ImportSourceError naming the URL.
 */
export async function fetchNdjson(url: string, bases: readonly string[], maxBytes: number, timeoutMs = 60_000): Promise<string> {
  let current = url;
  for (let hop = 0; ; hop++) {
    if (!isAllowedSource(current, bases))
      throw new ImportSourceError(`${current} is not under an allow-listed FHIR server (IMPORT_ALLOWED_BASES)`);
    let res: Response;
    try {
      res = await fetch(current, {
        redirect: 'manual',
        headers: { accept: 'application/fhir+ndjson, application/ndjson;q=0.9, */*;q=0.1' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      throw new ImportSourceError(
        `${current} could not be fetched: ${((e as Error).cause as Error | undefined)?.message ?? (e as Error).message}`,
      );
    }
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new ImportSourceError(`${url} redirected more than ${MAX_REDIRECTS} times`);
      current = new URL(res.headers.get('location')!, current).toString();
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new ImportSourceError(`${current} answered ${res.status}`);
    }
    return readCapped(res, current, maxBytes);
  }
}

async function readCapped(res: Response, url: string, maxBytes: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ImportSourceError(`${url} is larger than ${maxBytes} bytes`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString('utf8');
}
