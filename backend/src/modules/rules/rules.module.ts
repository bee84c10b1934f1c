import { Module } from '@nestjs/common';
import { RuleAnalyticsService } from './rule-analytics.service';
import { RuleSetsController } from './rule-sets.controller';
import { RuleSetsRepository } from './rule-sets.repository';
import { RuleVersionsRepository } from './rule-versions.repository';
import { RulesRepository } from './rules.repository';
import { RuleSetVignettesService } from './rule-set-vignettes.service';
import { RuleSetsService } from './rule-sets.service';
import { RuleVersionsService } from './rule-versions.service';
import { RuleVersionFhir } from './rule-version-fhir';
import { RulesController } from './rules.controller';
import { RulesService } from './rules.service';

/**
 * Exports RuleVersionsService: loadPublishedRuleSets() and loadVersion() are what assessments evaluate.
 * Publishing needs a PublishImpactCheck, which the (global) impact-preview module provides.
 */
@Module({
  controllers: [RuleSetsController, RulesController],
  providers: [
    RuleSetsService,
    RulesService,
    RuleVersionsService,
    RuleVersionFhir,
    RuleSetVignettesService,
    RuleAnalyticsService,
    RuleSetsRepository,
    RulesRepository,
    RuleVersionsRepository,
  ],
  exports: [RuleVersionsService],
})
export class RulesModule {}
