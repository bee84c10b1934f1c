import { Body, Controller, Get, HttpCode, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLINICAL_ROLES, type AssessmentJson, type AssessmentSummaryJson, type ChatSessionJson, type FhirBundleJson } from '@cds/contracts';
import type { ListQuery, Page } from '../../common/pagination';
import { ListQueryPipe } from '../../common/list-query.pipe';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { AnswerDto, AssessmentQueryDto, ChoiceDto, StartAssessmentDto } from './assessments.dto';
import { ASSESSMENT_SORTABLE, AssessmentsService } from './assessments.service';
import { CASE_LIST_FILTERS } from './case-history';
import { CHAT_SESSION_SORTABLE } from './chat-sessions.repository';
import { ChatSessionsService } from './chat-sessions.service';
import { ContractResponse } from '../../common/contract-response';
import { FhirJsonInterceptor } from '../../common/fhir-json.interceptor';
import { AssessmentFhir } from './assessment-fhir';

@ApiTags('assessments')
@ApiBearerAuth()
@Roles(...CLINICAL_ROLES)
@Controller('assessments')
export class AssessmentsController {
  constructor(
    private readonly assessments: AssessmentsService,
    private readonly fhir: AssessmentFhir,
  ) {}

  @ContractResponse('AssessmentJson')
  @Post()
  @ApiOperation({
    summary:
      'Start a clinical assessment with the published rules { mode?, record_context? }: the first question, or completed at once (410 record_context_unavailable when the named context cannot be used)',
  })
  start(@CurrentUser() user: AuthUser, @Body() body: StartAssessmentDto): Promise<AssessmentJson> {
    return this.assessments.start(user, body.record_context);
  }

  @ContractResponse('AssessmentJson', { array: true })
  @Get()
  @ApiOperation({
    summary:
      'Case history, newest first (simple-rest; filter {mine, user_id, is_completed, id}); a PCP gets their own, an administrator all',
  })
  list(
    @CurrentUser() user: AuthUser,
    @Query(
      new ListQueryPipe({ sortable: ASSESSMENT_SORTABLE, defaultSort: { field: 'created_at', order: 'DESC' }, filters: CASE_LIST_FILTERS }),
    )
    query: ListQuery,
  ): Promise<Page<AssessmentJson>> {
    return this.assessments.list(user, query);
  }

  @ContractResponse('AssessmentSummaryJson')
  @Get('summary')
  @ApiOperation({ summary: "The caller's own { total, completed, with_recommendation } and the active published rules" })
  summary(@CurrentUser() user: AuthUser): Promise<AssessmentSummaryJson> {
    return this.assessments.summary(user);
  }

  @ContractResponse('AssessmentJson')
  @Get(':id')
  @ApiOperation({ summary: 'One assessment (own, or any for an administrator); ?debug=true adds the rule-evaluation log' })
  get(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string, @Query() query: AssessmentQueryDto): Promise<AssessmentJson> {
    return this.assessments.get(user, id, query.debug === 'true');
  }

  @ApiTags('fhir')
  @ContractResponse('FhirBundleJson', { contentType: 'application/fhir+json' })
  @UseInterceptors(FhirJsonInterceptor)
  @Get(':id/fhir')
  @ApiOperation({
    summary:
      'The assessment as a FHIR R4 Bundle (collection): Questionnaire, QuestionnaireResponse, one Observation per measured answer, GuidanceResponse with its findings (own, or any for an administrator)',
  })
  fhirBundle(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string): Promise<FhirBundleJson> {
    return this.fhir.bundle(user, id);
  }

  @ContractResponse('AssessmentJson')
  @Post(':id/answers')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Answer the current question { parameter_id, value, unit?, observed_at?, step? }: the next question or the result with every finding (400 not asked or wrong type, 422 out_of_range or unit_not_accepted, 409 completed or stale step)',
  })
  answer(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: AnswerDto): Promise<AssessmentJson> {
    return this.assessments.answer(user, id, body);
  }
}

@ApiTags('chat-sessions')
@ApiBearerAuth()
@Controller('chat-sessions')
export class ChatSessionsController {
  constructor(private readonly chat: ChatSessionsService) {}

  @ContractResponse('ChatSessionJson')
  @Post()
  @ApiOperation({
    summary:
      'Start (or restart) a conversation: a new chatbot_sessions row with the first question; pending null means no questions are configured',
  })
  start(@CurrentUser() user: AuthUser): Promise<ChatSessionJson> {
    return this.chat.start(user);
  }

  @ContractResponse('ChatSessionJson', { array: true })
  @Get()
  @ApiOperation({
    summary:
      'Chat sessions for the case history, newest first (simple-rest; filter {mine, user_id, is_completed, id}); your own, or all for an administrator',
  })
  list(
    @CurrentUser() user: AuthUser,
    @Query(
      new ListQueryPipe({
        sortable: CHAT_SESSION_SORTABLE,
        defaultSort: { field: 'created_at', order: 'DESC' },
        filters: CASE_LIST_FILTERS,
      }),
    )
    query: ListQuery,
  ): Promise<Page<ChatSessionJson>> {
    return this.chat.list(user, query);
  }

  @ContractResponse('ChatSessionJson')
  @Get(':id')
  @ApiOperation({ summary: 'One of your chat sessions (any, read-only, for an administrator)' })
  get(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string): Promise<ChatSessionJson> {
    return this.chat.get(user, id);
  }

  @ContractResponse('ChatSessionJson')
  @Post(':id/answers')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Answer the pending question { parameter_id, value, unit?, observed_at? } (400 wrong type, 422 out_of_range or unit_not_accepted)',
  })
  answer(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: AnswerDto): Promise<ChatSessionJson> {
    return this.chat.answer(user, id, body);
  }

  @ContractResponse('ChatSessionJson')
  @Post(':id/choice')
  @HttpCode(200)
  @ApiOperation({ summary: 'Choose one of several matching recommendations { rule_id }; completes the session' })
  choose(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: ChoiceDto): Promise<ChatSessionJson> {
    return this.chat.choose(user, id, body);
  }
}
