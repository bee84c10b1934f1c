import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type PolishEnqueueJson, type PolishStatusJson } from '@cds/contracts';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, ServesWithoutDatabase, type AuthUser } from '../../common/auth-user';
import { PolishQuestionDto, PolishQuestionResponse } from './polish.dto';
import { PolishService } from './polish.service';
import { QueueDashboard } from './queue-dashboard';
import { ContractResponse } from '../../common/contract-response';

@ApiTags('polish')
@ApiBearerAuth()
@Controller()
export class PolishController {
  constructor(
    private readonly polish: PolishService,
    private readonly dashboard: QueueDashboard,
  ) {}

  @ServesWithoutDatabase()
  @Post('polish-question')
  @HttpCode(200)
  @ApiOperation({ summary: 'Polished wording for a parameter question; falls back to built-in wording, never fails for a valid body' })
  @ApiOkResponse({ type: PolishQuestionResponse })
  async polishQuestion(@Body() body: PolishQuestionDto): Promise<PolishQuestionResponse> {
    return { polishedQuestion: await this.polish.polishQuestion(body.displayName, body.parameterName) };
  }

  @Roles(...ADMIN_ROLES)
  @ContractResponse('PolishEnqueueJson')
  @Post('parameters/:id/polish')
  @HttpCode(202)
  @ApiOperation({ summary: 'Queue polishing of the parameter as it is now (202 with the job id)' })
  requestPolish(@Param('id', ParseIdPipe) id: string): Promise<PolishEnqueueJson> {
    return this.polish.requestPolish(id);
  }

  @Roles(...ADMIN_ROLES)
  @ContractResponse('PolishStatusJson')
  @Get('polish/status')
  @ApiOperation({ summary: 'Queue driver, primary provider and job counts (Settings page)' })
  status(): Promise<PolishStatusJson> {
    return this.polish.status();
  }

  @Roles(...ADMIN_ROLES)
  @Post('polish/dashboard-link')
  @HttpCode(201)
  @ApiOperation({ summary: 'A one-time URL (valid 60 s) that opens the Bull Board queue dashboard; 404 without Redis' })
  dashboardLink(@CurrentUser() user: AuthUser) {
    return this.dashboard.mintLink(user);
  }
}
