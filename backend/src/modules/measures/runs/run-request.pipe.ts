import { Injectable, type PipeTransform } from '@nestjs/common';
import type { MeasureRunRequestJson } from '@cds/contracts';
import { DomainError, validationFailed, type FieldError } from '../../../common/errors';
import { readPanelPeriod } from '../measures.service';
import { SHIPPED_MEASURES } from '../shipped-measures';

/** A run's request with its defaults filled in: the period (the current calendar year), every shipped measure, no trend. */
export type MeasureRunRequest = Required<MeasureRunRequestJson>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body of `POST /api/measure-runs` (the contract's MeasureRunRequestJson), checked field by field: 400 validation_failed. */
@Injectable()
export class MeasureRunRequestPipe implements PipeTransform<unknown, MeasureRunRequest> {
  transform(body: unknown): MeasureRunRequest {
    return readRunRequest(body);
  }
}

/** `{ period_start?, period_end?, measure_ids?, trend? }`: both dates or neither (default the current calendar year). */
function readRunRequest(body: unknown): MeasureRunRequest {
  if (body === undefined || body === null || body === '') body = {};
  if (!isObject(body)) throw validationFailed([{ field: 'body', message: 'must be an object' }]);
  const problems: FieldError[] = Object.keys(body)
    .filter((k) => !['period_start', 'period_end', 'measure_ids', 'trend'].includes(k))
    .map((k) => ({ field: k, message: `${k} is not a field of a measure run` }));
  if ((body.period_start === undefined) !== (body.period_end === undefined))
    problems.push({
      field: body.period_start === undefined ? 'period_start' : 'period_end',
      message: 'give both period_start and period_end, or neither',
    });
  // The measure ids are the shipped ones: a published local version keeps its measure's id.
  const known = SHIPPED_MEASURES.map((m) => m.id);
  const ids = body.measure_ids;
  if (ids !== undefined && (!Array.isArray(ids) || !ids.length || ids.some((i) => typeof i !== 'string' || !known.includes(i))))
    problems.push({ field: 'measure_ids', message: `must list one or more of ${known.join(', ')}` });
  if (body.trend !== undefined && typeof body.trend !== 'boolean') problems.push({ field: 'trend', message: 'must be true or false' });
  if (problems.length) throw validationFailed(problems);
  let period: { start: string; end: string };
  try {
    period = readPanelPeriod(body.period_start === undefined ? {} : { periodStart: body.period_start, periodEnd: body.period_end });
  } catch (e) {
    // The Panel's reading names periodStart/periodEnd; a run's body names them period_start/period_end.
    if (e instanceof DomainError)
      throw validationFailed(
        ((e.details ?? []) as FieldError[]).map((d) => ({
          field: d.field === 'periodStart' ? 'period_start' : 'period_end',
          message: d.message.replace('periodStart', 'period_start').replace('periodEnd', 'period_end'),
        })),
      );
    throw e;
  }
  return {
    period_start: period.start,
    period_end: period.end,
    measure_ids: ids === undefined ? known : [...new Set(ids as string[])],
    trend: body.trend === true,
  };
}
