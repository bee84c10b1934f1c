import { Module } from '@nestjs/common';
import { RuleSetsController } from './rule-sets.controller';
import { RuleSetsService } from './rule-sets.service';
import { RuleVersionsService } from './rule-versions.service';
import { RulesController } from './rules.controller';
import { RulesService } from './rules.service';

/** Exports RuleVersionsService: loadPublishedRuleSets() and loadVersion() are what assessments evaluate. */
@Module({
  controllers: [RuleSetsController, RulesController],
  providers: [RuleSetsService, RulesService, RuleVersionsService],
  exports: [RuleVersionsService],
})
export class RulesModule {}
