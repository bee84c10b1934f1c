import type { Test } from 'supertest';

/** One line of a streamed preview (application/x-ndjson): progress, the answer, or the error that stopped it. */
export interface ProgressLine<T> {
  progress?: { done: number; total: number };
  preview?: T;
  error?: { statusCode: number; code: string; message: string };
}

/** Sends a request asking for the streamed form and parses its lines (an error answered before any line is the body, as text). */
export async function streamedLines<T>(req: Test) {
  const res = await req
    .set('Accept', 'application/x-ndjson')
    .buffer(true)
    .parse((r, done) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (text += c));
      r.on('end', () => done(null, text));
    });
  const lines = String(res.body)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ProgressLine<T>);
  return { res, lines };
}
