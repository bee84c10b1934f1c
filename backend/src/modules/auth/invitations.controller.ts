import { Body, Controller, Delete, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type InvitationJson, type InvitationPreviewJson, type SessionJson } from '@cds/contracts';
import type { HttpRequest as Request } from '../../http/request';
import type { ListQuery, Page } from '../../common/pagination';
import { ListQueryPipe } from '../../common/list-query.pipe';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { AuthService } from './auth.service';
import { CurrentUser, Public, Roles, type AuthUser } from '../../common/auth-user';
import { AcceptInvitationDto, CreateInvitationDto } from './invitations.dto';
import { InvitationsService } from './invitations.service';
import { ContractResponse } from '../../common/contract-response';

@ApiTags('invitations')
@Controller('invitations')
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly auth: AuthService,
  ) {}

  @ContractResponse('InvitationJson')
  @Post()
  @Roles(...ADMIN_ROLES)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Invite someone by email with a role; the response carries the link, shown once' })
  create(@CurrentUser() actor: AuthUser, @Body() body: CreateInvitationDto): Promise<InvitationJson> {
    return this.invitations.create(actor, body.email, body.role);
  }

  @ContractResponse('InvitationJson', { array: true })
  @Get()
  @Roles(...ADMIN_ROLES)
  @ApiBearerAuth()
  list(
    @Query(new ListQueryPipe({ sortable: ['created_at', 'email', 'expires_at'], defaultSort: { field: 'created_at', order: 'DESC' } }))
    query: ListQuery,
  ): Promise<Page<InvitationJson>> {
    return this.invitations.list(query);
  }

  @ContractResponse('InvitationJson')
  @Delete(':id')
  @Roles(...ADMIN_ROLES)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Revoke a pending invitation' })
  revoke(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string): Promise<InvitationJson> {
    return this.invitations.revoke(actor, id);
  }

  @Public()
  @ContractResponse('InvitationPreviewJson')
  @Get('by-token/:token')
  @ApiOperation({ summary: 'What an invitation link offers (404 unknown, 409 used, revoked or expired)' })
  preview(@Param('token') token: string): Promise<InvitationPreviewJson> {
    return this.invitations.preview(token);
  }

  @Public()
  @ContractResponse('SessionJson')
  @Post('accept')
  @ApiOperation({ summary: 'Set a password and join with the invited role; returns a session' })
  accept(@Body() body: AcceptInvitationDto, @Req() req: Request): Promise<SessionJson> {
    return this.auth.acceptInvitation(body, req.ip ?? 'unknown');
  }
}
