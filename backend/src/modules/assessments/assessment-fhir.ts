import { Inject, Injectable } from '@nestjs/common';
import type { FhirBundleJson } from '@cds/contracts';
import type { AuthUser } from '../../common/auth-user';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { assessmentBundle } from '../fhir/content';
import { AssessmentsService } from './assessments.service';
import { PublishedRules } from './published-rules';

/** GET /api/assessments/:id/fhir: the assessment and the versions it used are loaded here, the fhir module maps them. */
@Injectable()
export class AssessmentFhir {
  constructor(
    private readonly assessments: AssessmentsService,
    private readonly published: PublishedRules,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Same visibility as GET /api/assessments/:id (own, or any for an administrator). */
  async bundle(user: AuthUser, id: string): Promise<FhirBundleJson> {
    const assessment = await this.assessments.get(user, id, false);
    const knowledge = await this.published.of(assessment.rule_set_versions);
    const loinc = await this.published.loincCodes(knowledge.parameters.map((p) => p.id));
    const questions = await this.published.questions(knowledge);
    return assessmentBundle({ ctx: { base: this.config.publicUrl, loinc }, assessment, knowledge, questions });
  }
}
