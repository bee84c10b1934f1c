import { Module } from '@nestjs/common';
import { AssessmentsModule } from '../assessments';
import { RulesModule } from '../rules';
import { AssessmentFhirController, QuestionnaireController, RuleVersionFhirController } from './fhir.controller';
import { FhirRepository } from './fhir.repository';
import { FhirService } from './fhir.service';

/** FHIR R4 out and the adaptive questionnaire (issue 11): the same rules, read by FHIR clients. */
@Module({
  imports: [AssessmentsModule, RulesModule],
  controllers: [AssessmentFhirController, RuleVersionFhirController, QuestionnaireController],
  providers: [FhirService, FhirRepository],
})
export class FhirModule {}
