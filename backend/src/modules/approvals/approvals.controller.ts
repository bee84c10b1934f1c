import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { parseListQuery } from '../../common/pagination';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../auth/auth-user';
import { AccessRequestDto, RejectDto } from './approvals.dto';
import { APPROVAL_SORTABLE, ApprovalsService } from './approvals.service';

@ApiTags('me') @ApiBearerAuth()
@Controller('me/access-requests')
export class AccessRequestsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Post()
  @ApiOperation({ summary: 'Request PCP access (409 when one is pending or the role is already held)' })
  request(@CurrentUser() user: AuthUser, @Body() body: AccessRequestDto) {
    return this.approvals.request(user, body.requested_role);
  }

  @Get()
  mine(@CurrentUser() user: AuthUser) {
    return this.approvals.mine(user.id);
  }
}

@ApiTags('approvals') @ApiBearerAuth()
@Roles('admin', 'super_admin')
@Controller('approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  @ApiOperation({ summary: 'Access requests (simple-rest; filter {status, requested_role, q, id})' })
  list(@Query() query: Record<string, unknown>) {
    return this.approvals.list(parseListQuery(query, { sortable: APPROVAL_SORTABLE, defaultSort: { field: 'created_at', order: 'DESC' } }));
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string) {
    return this.approvals.get(id);
  }

  @Post(':id/approve') @HttpCode(200)
  approve(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string) {
    return this.approvals.approve(actor, id);
  }

  @Post(':id/reject') @HttpCode(200)
  reject(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: RejectDto) {
    return this.approvals.reject(actor, id, body.reason);
  }
}
