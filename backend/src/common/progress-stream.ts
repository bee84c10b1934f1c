import { PassThrough, type Readable } from 'node:stream';
import type { Logger } from '@nestjs/common';
import { toErrorBody } from './error.filter';

/** The streamed form of a long preview, with its progress (asked for with the Accept header). */
export const PROGRESS_TYPE = 'application/x-ndjson';

/** Whether the client asked for the streamed form. */
export const wantsProgress = (accept: string | undefined): boolean => !!accept?.includes(PROGRESS_TYPE);

/** Told after each slice of work: `done` of `total` patients compared. */
export type Progress = (done: number, total: number) => void;

/** The client of a streamed answer went away: the work stops at its next progress report. */
class ClientGone extends Error {}

/**
 * `compute` as a stream of lines (application/x-ndjson): `{ progress: { done, total } }` each time it reports,
 * then `{ preview }`, or `{ error }` with api.md's error body if it failed once the answer had begun. A client
 * that goes away stops the work (the stream is destroyed under it, and the next report throws).
 */
export function progressStream<T>(compute: (progress: Progress) => Promise<T>, logger: Logger): Readable {
  const out = new PassThrough();
  const line = (value: object) => `${JSON.stringify(value)}\n`;
  compute((done, total) => {
    if (out.destroyed) throw new ClientGone();
    out.write(line({ progress: { done, total } }));
  }).then(
    (preview) => {
      if (!out.destroyed) out.end(line({ preview }));
    },
    (e: unknown) => {
      if (e instanceof ClientGone || out.destroyed) return;
      const error = toErrorBody(e);
      if (error.statusCode >= 500) logger.error(e instanceof Error ? e : String(e));
      out.end(line({ error }));
    },
  );
  return out;
}
