import { Injectable, type PipeTransform } from '@nestjs/common';
import { NDJSON_MEDIA_TYPE, type FieldError, type RecordImportInputJson, type RecordImportRequestJson } from '@cds/contracts';
import { DomainError, validationFailed } from '../../../common/errors';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const RESOURCE_TYPE = /^[A-Z][A-Za-z]{1,63}$/;
/** URL inputs in one import (a Bulk Data export's manifest lists one file per resource type, sometimes several). */
export const MAX_IMPORT_INPUTS = 100;

/** What `POST /api/fhir/$import` was sent: the NDJSON itself, or the contract's request naming where to fetch it. */
export type ImportBody = { ndjson: string } | { request: RecordImportRequestJson };

/**
 * The body of `$import`, checked before the handler: text is an NDJSON upload (its lines are read by
 * the job), JSON must be a RecordImportRequestJson (400 validation_failed naming each field), and
 * anything else is the wrong media type (415).
 */
@Injectable()
export class ImportBodyPipe implements PipeTransform<unknown, ImportBody> {
  transform(body: unknown): ImportBody {
    if (typeof body === 'string') return { ndjson: body };
    if (typeof body === 'object' && body !== null) return { request: readImportRequest(body) };
    throw new DomainError(
      'unsupported_media_type',
      'Send application/fhir+ndjson (one resource a line), or application/json { "inputFormat": "application/fhir+ndjson", "input": [{ "type", "url" }] }',
    );
  }
}

/** The JSON form of `$import`: `{ inputFormat: "application/fhir+ndjson", input: [{ type, url }] }`. */
function readImportRequest(body: unknown): RecordImportRequestJson {
  const problems: FieldError[] = [];
  if (!isObject(body)) throw validationFailed([{ field: 'body', message: 'must be an object with inputFormat and input' }]);
  if (body.inputFormat !== NDJSON_MEDIA_TYPE) problems.push({ field: 'inputFormat', message: `must be ${NDJSON_MEDIA_TYPE}` });
  const input = body.input;
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_IMPORT_INPUTS)
    problems.push({ field: 'input', message: `must list 1 to ${MAX_IMPORT_INPUTS} inputs` });
  else
    input.forEach((i: unknown, n) => {
      if (!isObject(i) || typeof i.type !== 'string' || !RESOURCE_TYPE.test(i.type))
        problems.push({ field: `input[${n}].type`, message: 'must be a FHIR resource type' });
      if (!isObject(i) || typeof i.url !== 'string' || i.url.length > 2000 || !/^https?:\/\//i.test(i.url))
        problems.push({ field: `input[${n}].url`, message: 'must be an http(s) URL' });
    });
  if (problems.length) throw validationFailed(problems);
  return { inputFormat: NDJSON_MEDIA_TYPE, input: (input as RecordImportInputJson[]).map((i) => ({ type: i.type, url: i.url })) };
}
