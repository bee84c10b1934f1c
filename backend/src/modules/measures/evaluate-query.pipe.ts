import { Injectable, type PipeTransform } from '@nestjs/common';
import type { EvaluateMeasureParams } from './measures.service';

const NAMES = ['periodStart', 'periodEnd', 'reportType', 'subject'] as const;

/**
 * `$evaluate-measure`'s query: the four parameters it names, as given (the service checks their values with
 * a body's, after the measure is found: an unknown measure is a 404 before a bad period is a 400). Other
 * parameters (FHIR's `_format` and the like) are left out, as they always were.
 */
@Injectable()
export class EvaluateQueryPipe implements PipeTransform<unknown, EvaluateMeasureParams> {
  transform(raw: unknown): EvaluateMeasureParams {
    const query = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const out: EvaluateMeasureParams = {};
    for (const name of NAMES) if (query[name] !== undefined) out[name] = query[name];
    return out;
  }
}
