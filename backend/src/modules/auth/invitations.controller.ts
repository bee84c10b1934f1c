import { Body, Controller, Delete, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { parseListQuery } from '../../common/pagination';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { AuthService } from './auth.service';
import { CurrentUser, Public, Roles, type AuthUser } from './auth-user';
import { AcceptInvitationDto, CreateInvitationDto } from './invitations.dto';
import { InvitationsService } from './invitations.service';

@ApiTags('invitations')
@Controller('invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService, private readonly auth: AuthService) {}

  @Post() @Roles('admin', 'super_admin') @ApiBearerAuth()
  @ApiOperation({ summary: 'Invite someone by email with a role; the response carries the link, shown once' })
  create(@CurrentUser() actor: AuthUser, @Body() body: CreateInvitationDto) {
    return this.invitations.create(actor, body.email, body.role);
  }

  @Get() @Roles('admin', 'super_admin') @ApiBearerAuth()
  list(@Query() query: Record<string, unknown>) {
    return this.invitations.list(parseListQuery(query, { sortable: ['created_at', 'email', 'expires_at'], defaultSort: { field: 'created_at', order: 'DESC' } }));
  }

  @Delete(':id') @Roles('admin', 'super_admin') @ApiBearerAuth()
  @ApiOperation({ summary: 'Revoke a pending invitation' })
  revoke(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string) {
    return this.invitations.revoke(actor, id);
  }

  @Public() @Get('by-token/:token')
  @ApiOperation({ summary: 'What an invitation link offers (404 unknown, 409 used, revoked or expired)' })
  preview(@Param('token') token: string) {
    return this.invitations.preview(token);
  }

  @Public() @Post('accept')
  @ApiOperation({ summary: 'Set a password and join with the invited role; returns a session' })
  accept(@Body() body: AcceptInvitationDto, @Req() req: Request) {
    return this.auth.acceptInvitation(body, req.ip ?? 'unknown');
  }
}
