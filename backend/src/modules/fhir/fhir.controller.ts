import { Body, Controller, Get, HttpCode, Param, Post, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, CLINICAL_ROLES, type FhirBundleJson, type FhirResourceJson } from '@cds/contracts';
import { ContractBody, ContractResponse } from '../../common/contract-response';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { VersionNumberPipe } from '../rules';
import { FhirService } from './fhir.service';
import { FhirJsonInterceptor } from './fhir-json.interceptor';
import type { ParsedResponse } from './questionnaire-response';
import { QuestionnaireResponsePipe } from './questionnaire-response.pipe';

/** The FHIR routes answer FHIR JSON (FhirJsonInterceptor sets the content type). */
const FHIR_JSON = { contentType: 'application/fhir+json' };

@ApiTags('fhir')
@ApiBearerAuth()
@UseInterceptors(FhirJsonInterceptor)
@Roles(...CLINICAL_ROLES)
@Controller('assessments')
export class AssessmentFhirController {
  constructor(private readonly fhir: FhirService) {}

  @ContractResponse('FhirBundleJson', FHIR_JSON)
  @Get(':id/fhir')
  @ApiOperation({
    summary:
      'The assessment as a FHIR R4 Bundle (collection): Questionnaire, QuestionnaireResponse, one Observation per measured answer, GuidanceResponse with its findings (own, or any for an administrator)',
  })
  bundle(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string): Promise<FhirBundleJson> {
    return this.fhir.assessmentBundle(user, id);
  }
}

@ApiTags('fhir')
@ApiBearerAuth()
@UseInterceptors(FhirJsonInterceptor)
@Roles(...ADMIN_ROLES)
@Controller('rule-sets')
export class RuleVersionFhirController {
  constructor(private readonly fhir: FhirService) {}

  @ContractResponse('FhirBundleJson', FHIR_JSON)
  @Get(':id/versions/:number/fhir')
  @ApiOperation({ summary: 'A published version as a FHIR R4 Bundle: its PlanDefinition and the Library of its conditions' })
  bundle(@Param('id', ParseIdPipe) id: string, @Param('number', VersionNumberPipe) number: number): Promise<FhirBundleJson> {
    return this.fhir.ruleVersionBundle(id, number);
  }
}

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
