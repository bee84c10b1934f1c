import { Injectable, type PipeTransform } from '@nestjs/common';
import { validationFailed } from '../../common/errors';
import { readPanelPeriod } from './measures.service';

export interface PanelPeriod {
  start: string;
  end: string;
}

const asRecord = (raw: unknown): Record<string, unknown> =>
  typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};

/** The Panel's query: periodStart and periodEnd (dates), or the current calendar year; any other parameter is a 400. */
@Injectable()
export class PanelPeriodPipe implements PipeTransform<unknown, PanelPeriod> {
  transform(raw: unknown): PanelPeriod {
    return readPanelPeriod(asRecord(raw));
  }
}

/** The trend takes no parameter (always the last 12 months): each one given is a 400 naming it. */
@Injectable()
export class NoTrendParamsPipe implements PipeTransform<unknown, Record<string, never>> {
  transform(raw: unknown): Record<string, never> {
    const problems = Object.keys(asRecord(raw)).map((key) => ({ field: key, message: `${key} is not a parameter of the trend` }));
    if (problems.length) throw validationFailed(problems);
    return {};
  }
}

/** A FHIR id (R4: 1–64 of letters, digits, '-' and '.'). */
const FHIR_ID = /^[A-Za-z0-9.-]{1,64}$/;

/** The Panel's patient in the path: a FHIR id, else a 400 naming patientId. */
@Injectable()
export class PatientIdPipe implements PipeTransform<string, string> {
  transform(id: string): string {
    if (!FHIR_ID.test(id))
      throw validationFailed([{ field: 'patientId', message: 'patientId must be a FHIR id (letters, digits, - and .)' }]);
    return id;
  }
}
