import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type ApprovalJson } from '@cds/contracts';
import type { ListQuery, Page } from '../../common/pagination';
import { ListQueryPipe } from '../../common/list-query.pipe';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { AccessRequestDto, RejectDto } from './approvals.dto';
import { APPROVAL_SORTABLE, ApprovalsService } from './approvals.service';
import { ContractResponse } from '../../common/contract-response';

@ApiTags('me')
@ApiBearerAuth()
@Controller('me/access-requests')
export class AccessRequestsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @ContractResponse('ApprovalJson')
  @Post()
  @ApiOperation({ summary: 'Request PCP access (409 when one is pending or the role is already held)' })
  request(@CurrentUser() user: AuthUser, @Body() body: AccessRequestDto): Promise<ApprovalJson> {
    return this.approvals.request(user, body.requested_role);
  }

  @ContractResponse('ApprovalJson', { array: true })
  @Get()
  mine(@CurrentUser() user: AuthUser): Promise<ApprovalJson[]> {
    return this.approvals.mine(user.id);
  }
}

@ApiTags('approvals')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @ContractResponse('ApprovalJson', { array: true })
  @Get()
  @ApiOperation({ summary: 'Access requests (simple-rest; filter {status, requested_role, q, id})' })
  list(
    @Query(new ListQueryPipe({ sortable: APPROVAL_SORTABLE, defaultSort: { field: 'created_at', order: 'DESC' } })) query: ListQuery,
  ): Promise<Page<ApprovalJson>> {
    return this.approvals.list(query);
  }

  @ContractResponse('ApprovalJson')
  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string): Promise<ApprovalJson> {
    return this.approvals.get(id);
  }

  @ContractResponse('ApprovalJson')
  @Post(':id/approve')
  @HttpCode(200)
  approve(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string): Promise<ApprovalJson> {
    return this.approvals.approve(actor, id);
  }

  @ContractResponse('ApprovalJson')
  @Post(':id/reject')
  @HttpCode(200)
  reject(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: RejectDto): Promise<ApprovalJson> {
    return this.approvals.reject(actor, id, body.reason);
  }
}
