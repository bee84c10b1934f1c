import { Injectable, type PipeTransform } from '@nestjs/common';
import type { EvaluateMeasureParams } from './measures.service';

const NAMES = ['periodStart', 'periodEnd', 'reportType', 'subject'];

/**
 * The body of `POST …/$evaluate-measure`: the parameters a FHIR Parameters resource names (valueDate,
 * valueString, valueCode, valueReference). Another body names none, so the query's stand; the values
 * are checked with the query's by the service (400 validation_failed naming the parameter).
 */
@Injectable()
export class EvaluateParametersPipe implements PipeTransform<unknown, EvaluateMeasureParams> {
  transform(body: unknown): EvaluateMeasureParams {
    const out: Record<string, unknown> = {};
    const list =
      typeof body === 'object' && body !== null && (body as { resourceType?: unknown }).resourceType === 'Parameters'
        ? (body as { parameter?: unknown }).parameter
        : undefined;
    for (const item of Array.isArray(list) ? list : []) {
      if (typeof item !== 'object' || item === null) continue;
      const { name, valueDate, valueString, valueCode, valueReference } = item as Record<string, unknown>;
      if (typeof name !== 'string' || !NAMES.includes(name)) continue;
      out[name] = valueDate ?? valueString ?? valueCode ?? (valueReference as { reference?: unknown } | undefined)?.reference;
    }
    return out;
  }
}
