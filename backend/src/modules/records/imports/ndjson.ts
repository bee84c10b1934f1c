import { assertSafeInput, jsonDepthWithin } from '../../../common/input-safety';
import { patientOf } from '../bundle-entries';
import { fhirProblems } from '../fhir-validation';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** FHIR R4 `id` characters, up to 255 as `POST /api/fhir` takes them (see bundle-entries.ts). */
const FHIR_ID = /^[A-Za-z0-9.-]{1,255}$/;
const RESOURCE_TYPE = /^[A-Z][A-Za-z]{1,63}$/;
/** One line may hold one resource of at most this size (a Bundle of a whole record goes to `POST /api/fhir`). */
export const MAX_LINE_CHARS = 10 * 1024 * 1024;

/** A slice of the upload, staged as one row and processed in one transaction. */
export interface NdjsonChunk {
  seq: number;
  /** 1-based line number of the chunk's first line in its input. */
  first_line: number;
  lines: string;
}

/**
 * The upload in chunks of `perChunk` lines each, numbered as the input numbers its lines (1-based; blank
 * lines count, so a reported line number is the one an editor shows). Trailing blank lines are dropped.
 */
export function chunkLines(text: string, perChunk: number, seqFrom = 0, lineFrom = 1): { chunks: NdjsonChunk[]; lines: number } {
  const all = text.split(/\r?\n/);
  while (all.length && all[all.length - 1].trim() === '') all.pop();
  const chunks: NdjsonChunk[] = [];
  for (let i = 0; i < all.length; i += perChunk)
    chunks.push({ seq: seqFrom + chunks.length, first_line: lineFrom + i, lines: all.slice(i, i + perChunk).join('\n') });
  return { chunks, lines: all.length };
}

/** A resource ready to stage at resourceType/id. */
export interface ImportedResource {
  resource_type: string;
  id: string;
  patient_id: string | null;
  resource: Json;
}

/** Why a line was skipped: its line number and what was wrong, as a batch entry's OperationOutcome says it. */
export interface LineProblem {
  line: number;
  diagnostics: string;
}

/**
 * One NDJSON line: a FHIR R4 resource with a resourceType and an id, valid as `POST /api/fhir` validates
 * (null for a blank line). Anything else is a problem naming the line; the import goes on without it.
 */
export function readLine(text: string, line: number): ImportedResource | LineProblem | null {
  if (text.trim() === '') return null;
  if (text.length > MAX_LINE_CHARS) return { line, diagnostics: `the line is longer than ${MAX_LINE_CHARS} characters` };
  if (!jsonDepthWithin(text)) return { line, diagnostics: 'the JSON is nested too deeply' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { line, diagnostics: 'the line is not JSON' };
  }
  if (!isObject(value) || typeof value.resourceType !== 'string' || !RESOURCE_TYPE.test(value.resourceType))
    return { line, diagnostics: 'the line is not a FHIR resource (no resourceType)' };
  if (typeof value.id !== 'string') return { line, diagnostics: `the ${value.resourceType} has no id` };
  if (!FHIR_ID.test(value.id)) return { line, diagnostics: 'the id must be 1 to 255 letters, digits, "-" or "."' };
  try {
    assertSafeInput(value, '');
  } catch (e) {
    return { line, diagnostics: (e as Error).message };
  }
  const outcome = fhirProblems(value);
  if (outcome) {
    const issues = (outcome.issue ?? []).map((i) => [i.expression?.[0], i.diagnostics].filter(Boolean).join(': ')).filter(Boolean);
    return { line, diagnostics: `not valid FHIR R4: ${issues.slice(0, 5).join('; ') || 'invalid'}`.slice(0, 1000) };
  }
  return { resource_type: value.resourceType, id: value.id, patient_id: patientOf(value), resource: value };
}

/** The resources and the problems of one staged chunk; a resource repeated later in the chunk replaces the earlier one. */
export function readChunk(chunk: NdjsonChunk): { resources: ImportedResource[]; problems: LineProblem[]; lines: number } {
  const byKey = new Map<string, ImportedResource>();
  const problems: LineProblem[] = [];
  const lines = chunk.lines.split('\n');
  lines.forEach((text, i) => {
    const read = readLine(text, chunk.first_line + i);
    if (read === null) return;
    if ('diagnostics' in read) problems.push(read);
    else byKey.set(`${read.resource_type}/${read.id}`, read);
  });
  return { resources: [...byKey.values()], problems, lines: lines.length };
}
