import { Injectable, type PipeTransform } from '@nestjs/common';
import { parseResponse, type ParsedResponse } from './questionnaire-response';

/** The body of `$next-question`: a QuestionnaireResponse, or a Parameters with it as `in`, checked (400 invalid_fhir_resource naming the field). */
@Injectable()
export class QuestionnaireResponsePipe implements PipeTransform<unknown, ParsedResponse> {
  transform(body: unknown): ParsedResponse {
    return parseResponse(body);
  }
}
