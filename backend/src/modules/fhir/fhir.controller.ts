import { Body, Controller, Get, HttpCode, Param, Post, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLINICAL_ROLES, type FhirResourceJson } from '@cds/contracts';
import { ContractBody, ContractResponse } from '../../common/contract-response';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { Roles } from '../../common/auth-user';
import { FhirService } from './fhir.service';
import { FhirJsonInterceptor } from '../../common/fhir-json.interceptor';
import type { ParsedResponse } from './questionnaire-response';
import { QuestionnaireResponsePipe } from './questionnaire-response.pipe';

/**
 * The adaptive Questionnaire: the fhir module's own path. The Bundles of an assessment and of a
 * version live under their owners' paths (assessments, rule-sets), which call `content.ts`.
 * FHIR routes answer FHIR JSON (FhirJsonInterceptor sets the content type).
 */
const FHIR_JSON = { contentType: 'application/fhir+json' };

@ApiTags('fhir')
@ApiBearerAuth()
@UseInterceptors(FhirJsonInterceptor)
@Roles(...CLINICAL_ROLES)
@Controller('fhir/Questionnaire')
export class QuestionnaireController {
  constructor(private readonly fhir: FhirService) {}

  @ContractResponse('FhirResourceJson', FHIR_JSON)
  @Get(':id')
  @ApiOperation({ summary: "The rule set's latest published version as an adaptive FHIR Questionnaire (id = rule set id)" })
  get(@Param('id', ParseIdPipe) id: string): Promise<FhirResourceJson> {
    return this.fhir.questionnaire(id);
  }

  @ContractResponse('FhirResourceJson', FHIR_JSON)
  @ContractBody('NextQuestionRequest', ['application/fhir+json', 'application/json'])
  @Post(':id/\\$next-question')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'SDC $next-question: a QuestionnaireResponse (or Parameters with it as "in") back with the next question, or completed with the result contained (400 invalid_fhir_resource, 422 questionnaire_mismatch)',
  })
  next(@Param('id', ParseIdPipe) id: string, @Body(QuestionnaireResponsePipe) body: ParsedResponse): Promise<FhirResourceJson> {
    return this.fhir.nextQuestion(id, body);
  }
}
