import { Injectable, type PipeTransform } from '@nestjs/common';
import type { MeasureDraftRuleJson } from '@cds/contracts';
import { validationFailed, type FieldError } from '../../../common/errors';
import { readDraftBody } from './measure-draft';

/** A change note: long enough to say why, short enough to show on a report. */
export const NOTE_MAX = 1000;

export interface DraftSave {
  rules: MeasureDraftRuleJson[];
  draft_revision: number | null;
}
export interface DraftPublish {
  note: string;
  draft_revision: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRevision = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 2_147_483_647;

function unknownFields(body: Record<string, unknown>, known: string[]): FieldError[] {
  return Object.keys(body)
    .filter((k) => !known.includes(k))
    .map((k) => ({ field: k, message: `${k} is not a field of this request` }));
}

/**
 * `PUT …/draft`: the rules in a draft's shape (1 to 100 rules, each an object) and the revision edited. A draft is
 * saved while unfinished: whether the engine can read its rules is checked on publish (and by the impact preview).
 */
export function readDraftSave(body: unknown): DraftSave {
  if (!isObject(body))
    throw validationFailed([{ field: 'body', message: 'The draft must be a JSON object with rules and draft_revision' }]);
  const problems = unknownFields(body, ['rules', 'draft_revision']);
  if (body.draft_revision !== null && !isRevision(body.draft_revision))
    problems.push({ field: 'draft_revision', message: 'draft_revision must be the revision of the draft edited, or null for a new draft' });
  let rules: unknown[] = [];
  try {
    rules = readDraftBody({ rules: body.rules }).rules;
  } catch (e) {
    problems.push(...(((e as { details?: FieldError[] }).details ?? []) as FieldError[]));
  }
  rules.forEach((r, i) => {
    if (!isObject(r)) problems.push({ field: `rules[${i}]`, message: `rules[${i}] must be an object` });
  });
  if (problems.length) throw validationFailed(problems);
  return { rules: rules as MeasureDraftRuleJson[], draft_revision: body.draft_revision as number | null };
}

export function readDraftPublish(body: unknown): DraftPublish {
  if (!isObject(body)) throw validationFailed([{ field: 'body', message: 'A publish must be a JSON object with note and draft_revision' }]);
  const problems = unknownFields(body, ['note', 'draft_revision']);
  const note = typeof body.note === 'string' ? body.note.trim() : '';
  if (!note || note.length > NOTE_MAX)
    problems.push({ field: 'note', message: `A change note is required to publish (1–${NOTE_MAX} characters): say what changed and why` });
  if (!isRevision(body.draft_revision))
    problems.push({ field: 'draft_revision', message: 'draft_revision must be the revision of the draft reviewed' });
  if (problems.length) throw validationFailed(problems);
  return { note, draft_revision: body.draft_revision as number };
}

/** `DELETE …/draft?revision=N`: the revision discarded, so a stale page never discards a newer edit. */
export function readRevisionQuery(query: unknown): { revision: number } {
  const raw = isObject(query) ? query.revision : undefined;
  const revision = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!isRevision(revision))
    throw validationFailed([{ field: 'revision', message: 'revision must be the revision of the draft discarded' }]);
  return { revision };
}

@Injectable()
export class DraftSavePipe implements PipeTransform<unknown, DraftSave> {
  transform(body: unknown): DraftSave {
    return readDraftSave(body);
  }
}

@Injectable()
export class DraftPublishPipe implements PipeTransform<unknown, DraftPublish> {
  transform(body: unknown): DraftPublish {
    return readDraftPublish(body);
  }
}

@Injectable()
export class RevisionQueryPipe implements PipeTransform<unknown, { revision: number }> {
  transform(query: unknown): { revision: number } {
    return readRevisionQuery(query);
  }
}

/** `…/versions/:version`: a version number (1 is the shipped definition). */
@Injectable()
export class VersionParamPipe implements PipeTransform<string, number> {
  transform(raw: string): number {
    const version = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (!isRevision(version)) throw validationFailed([{ field: 'version', message: 'version must be a version number (1, 2, …)' }]);
    return version;
  }
}
