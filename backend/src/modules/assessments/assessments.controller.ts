import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { parseListQuery } from '../../common/pagination';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../auth/auth-user';
import { AnalyticsQueryDto, AnswerDto, AssessmentQueryDto, ChoiceDto, StartAssessmentDto } from './assessments.dto';
import { ASSESSMENT_SORTABLE, AssessmentsService } from './assessments.service';
import { ChatSessionsService } from './chat-sessions.service';
import { RuleAnalyticsService } from './rule-analytics.service';

@ApiTags('assessments') @ApiBearerAuth()
@Roles('pcp', 'admin', 'super_admin')
@Controller('assessments')
export class AssessmentsController {
  constructor(private readonly assessments: AssessmentsService) {}

  @Post()
  @ApiOperation({ summary: 'Start a clinical assessment with the published rules: the first question, or completed at once' })
  start(@CurrentUser() user: AuthUser, @Body() _body: StartAssessmentDto) {
    return this.assessments.start(user);
  }

  @Get()
  @ApiOperation({ summary: 'Case history, newest first (simple-rest; filter {mine, user_id, is_completed, id}); a PCP gets their own, an administrator all' })
  list(@CurrentUser() user: AuthUser, @Query() query: Record<string, unknown>) {
    return this.assessments.list(user, parseListQuery(query, { sortable: ASSESSMENT_SORTABLE, defaultSort: { field: 'created_at', order: 'DESC' } }));
  }

  @Get('summary')
  @ApiOperation({ summary: "The caller's own { total, completed, with_recommendation } and the active published rules" })
  summary(@CurrentUser() user: AuthUser) {
    return this.assessments.summary(user);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One assessment (own, or any for an administrator); ?debug=true adds the rule-evaluation log' })
  get(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string, @Query() query: AssessmentQueryDto) {
    return this.assessments.get(user, id, query.debug === 'true');
  }

  @Post(':id/answers') @HttpCode(200)
  @ApiOperation({ summary: 'Answer the current question { parameter_id, value, step? }: the next question or the result (400 not asked or wrong type, 409 completed or stale step)' })
  answer(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: AnswerDto) {
    return this.assessments.answer(user, id, body);
  }
}

@ApiTags('chat-sessions') @ApiBearerAuth()
@Controller('chat-sessions')
export class ChatSessionsController {
  constructor(private readonly chat: ChatSessionsService) {}

  @Post()
  @ApiOperation({ summary: 'Start (or restart) a conversation: a new chatbot_sessions row with the first question; pending null means no questions are configured' })
  start(@CurrentUser() user: AuthUser) {
    return this.chat.start(user);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One of your chat sessions' })
  get(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string) {
    return this.chat.get(user, id);
  }

  @Post(':id/answers') @HttpCode(200)
  @ApiOperation({ summary: 'Answer the pending question { parameter_id, value }' })
  answer(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: AnswerDto) {
    return this.chat.answer(user, id, body);
  }

  @Post(':id/choice') @HttpCode(200)
  @ApiOperation({ summary: 'Choose one of several matching recommendations { rule_id }; completes the session' })
  choose(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: ChoiceDto) {
    return this.chat.choose(user, id, body);
  }
}

@ApiTags('rule-sets') @ApiBearerAuth()
@Roles('admin', 'super_admin')
@Controller('rule-sets')
export class RuleAnalyticsController {
  constructor(private readonly analytics: RuleAnalyticsService) {}

  @Get(':id/analytics')
  @ApiOperation({ summary: "Each rule's match count and share of the completed assessments that evaluated the set, and its no-match rate, by period (?period=day|week|month&from=&to=, UTC)" })
  forRuleSet(@Param('id', ParseIdPipe) id: string, @Query() query: AnalyticsQueryDto) {
    return this.analytics.forRuleSet(id, query);
  }
}
