import { Module } from '@nestjs/common';
import { AssessmentsModule } from '../assessments';
import { RulesModule } from '../rules';
import { QuestionnaireController } from './fhir.controller';
import { FhirService } from './fhir.service';

/**
 * The adaptive Questionnaire and $next-question (issue 11): the same rules, read by FHIR clients. The
 * FHIR mapping the assessments and rules modules serve on their own routes is `content.ts` (pure).
 */
@Module({
  imports: [AssessmentsModule, RulesModule],
  controllers: [QuestionnaireController],
  providers: [FhirService],
})
export class FhirModule {}
