import { Module } from '@nestjs/common';
import { ParametersModule } from '../parameters';
import { RulesModule } from '../rules';
import { AssessmentFhir } from './assessment-fhir';
import { AssessmentsController, ChatSessionsController } from './assessments.controller';
import { AssessmentsRepository } from './assessments.repository';
import { AssessmentsService } from './assessments.service';
import { ChatSessionsRepository } from './chat-sessions.repository';
import { ChatSessionsService } from './chat-sessions.service';
import { KnowledgeFacts } from './knowledge-facts';
import { PublishedRules } from './published-rules';

/** Clinical assessments and chat sessions, decided with published rule-set versions and stored with their basis. */
@Module({
  imports: [RulesModule, ParametersModule],
  controllers: [AssessmentsController, ChatSessionsController],
  exports: [PublishedRules, AssessmentsService],
  providers: [
    PublishedRules,
    KnowledgeFacts,
    AssessmentsRepository,
    ChatSessionsRepository,
    AssessmentsService,
    AssessmentFhir,
    ChatSessionsService,
  ],
})
export class AssessmentsModule {}
