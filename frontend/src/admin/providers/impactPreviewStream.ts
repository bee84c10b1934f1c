import { ApiError, apiErrorOf, apiFetch, NetworkError, readBody } from '../../api';

/** Patients compared so far (for a rule set, of the three groups together), as the server counts them. */
export interface ImpactProgress {
  done: number;
  total: number;
}

const STREAMED = 'application/x-ndjson';

type Line<T> = { progress?: ImpactProgress; preview?: T; error?: { statusCode?: number; message?: string } };

/**
 * An impact preview POSTed and streamed (api.md's `POST /api/rule-sets/:id/impact-preview` and
 * `POST /api/measures/designs/:id/impact`, asked for with `Accept: application/x-ndjson`): `onProgress`
 * hears each `{ progress }` line as the server compares a slice of patients, and the `{ preview }` line is
 * the answer. A server that answers plain JSON (no progress) is read as before. `body`: JSON to send.
 */
export async function streamImpactPreview<T>(url: string, onProgress: (p: ImpactProgress) => void, body?: unknown): Promise<T> {
  const res = await apiFetch(url, {
    method: 'POST',
    headers: {
      Accept: `${STREAMED}, application/json;q=0.9`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw apiErrorOf(res, (await readBody(res)).json);
  if (!res.headers.get('Content-Type')?.startsWith(STREAMED) || !res.body) return (await readBody(res)).json as T;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (e) {
      throw new NetworkError(e);
    }
    buffered += decoder.decode(chunk.value, { stream: !chunk.done });
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const text = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (!text) continue;
      const line = JSON.parse(text) as Line<T>;
      if (line.preview) return line.preview;
      if (line.error) throw new ApiError(line.error.message ?? '', line.error.statusCode ?? 500, line.error);
      if (line.progress) onProgress(line.progress);
    }
    if (chunk.done) throw new ApiError('The impact preview stopped before it was complete.', 502);
  }
}
