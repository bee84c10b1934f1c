import { Module } from '@nestjs/common';
import { ParametersModule } from '../parameters/parameters.module';
import { RulesModule } from '../rules/rules.module';
import { AssessmentsController, ChatSessionsController, RuleAnalyticsController } from './assessments.controller';
import { AssessmentsService } from './assessments.service';
import { ChatSessionsService } from './chat-sessions.service';
import { PublishedRules } from './published-rules';
import { RuleAnalyticsService } from './rule-analytics.service';

/** Clinical assessments and chat sessions, decided with published rule-set versions and stored with their basis. */
@Module({
  imports: [RulesModule, ParametersModule],
  controllers: [AssessmentsController, ChatSessionsController, RuleAnalyticsController],
  providers: [PublishedRules, AssessmentsService, ChatSessionsService, RuleAnalyticsService],
})
export class AssessmentsModule {}
