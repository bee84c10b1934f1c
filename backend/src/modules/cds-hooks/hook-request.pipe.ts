import { Injectable, type PipeTransform } from '@nestjs/common';
import { checkedBody, type CheckedBody } from './checked-body';
import { parsePatientViewRequest, PATIENT_VIEW, type PatientViewRequest } from './hook-request';

/** The body of `POST /api/cds-services/:id` (the contract's CdsHookRequestJson), checked field by field: 400 invalid_hook_request or unknown_hook. */
@Injectable()
export class HookRequestPipe implements PipeTransform<unknown, CheckedBody<PatientViewRequest>> {
  transform(body: unknown): CheckedBody<PatientViewRequest> {
    return checkedBody(() => parsePatientViewRequest(body, PATIENT_VIEW));
  }
}
