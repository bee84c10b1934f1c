import { Module } from '@nestjs/common';
import { AssessmentsModule } from '../assessments';
import { ParametersModule } from '../parameters';
import { RulesModule } from '../rules';
import { AssessmentFhirController, QuestionnaireController, RuleVersionFhirController } from './fhir.controller';
import { FhirService } from './fhir.service';

/** FHIR R4 out and the adaptive questionnaire (issue 11): the same rules, read by FHIR clients. */
@Module({
  imports: [AssessmentsModule, ParametersModule, RulesModule],
  controllers: [AssessmentFhirController, RuleVersionFhirController, QuestionnaireController],
  providers: [FhirService],
})
export class FhirModule {}
