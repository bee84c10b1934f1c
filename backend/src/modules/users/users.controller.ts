import { Body, Controller, Get, Param, Patch, Put, Query, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type ActivityItemJson, type MeJson, type ProfileJson, type StatsJson, type UserListItemJson } from '@cds/contracts';
import type { ListQuery, Page } from '../../common/pagination';
import { ListQueryPipe } from '../../common/list-query.pipe';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { ActivityService } from './activity.service';
import { SetRoleDto, UpdateProfileDto } from './users.dto';
import { USER_SORTABLE } from './users.repository';
import { UsersService } from './users.service';
import { ContractResponse } from '../../common/contract-response';
import { ReadOnlyEchoInterceptor } from '../../common/read-only-echo.interceptor';

@ApiTags('me')
@ApiBearerAuth()
@Controller('me')
export class MeController {
  constructor(private readonly users: UsersService) {}

  @ContractResponse('MeJson')
  @Get()
  @ApiOperation({ summary: 'The signed-in user, their role and profile' })
  me(@CurrentUser() user: AuthUser): Promise<MeJson> {
    return this.users.getMe(user.id);
  }

  @ContractResponse('ProfileJson')
  @Patch('profile')
  updateProfile(@CurrentUser() user: AuthUser, @Body() body: UpdateProfileDto): Promise<ProfileJson> {
    return this.users.updateProfile(user.id, body.first_name, body.last_name);
  }
}

@ApiTags('users')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('users')
@UseInterceptors(ReadOnlyEchoInterceptor)
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @ContractResponse('UserListItemJson', { array: true })
  @Get()
  @ApiOperation({ summary: 'List users (simple-rest: sort, range, filter {q, role, id})' })
  list(
    @Query(new ListQueryPipe({ sortable: USER_SORTABLE, defaultSort: { field: 'created_at', order: 'DESC' } })) query: ListQuery,
  ): Promise<Page<UserListItemJson>> {
    return this.users.list(query);
  }

  @ContractResponse('UserListItemJson')
  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string): Promise<UserListItemJson> {
    return this.users.getListItem(id);
  }

  @ContractResponse('UserListItemJson')
  @Put(':id/role')
  @ApiOperation({ summary: 'Set the role (super_admin: any role; admin: pcp or none on non-administrators)' })
  setRole(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: SetRoleDto): Promise<UserListItemJson> {
    return this.users.setRole(actor, id, body.role);
  }
}

@ApiTags('stats')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('stats')
export class StatsController {
  constructor(private readonly users: UsersService) {}

  @ContractResponse('StatsJson')
  @Get()
  @ApiOperation({ summary: 'Counts for the admin overview' })
  stats(): Promise<StatsJson> {
    return this.users.stats();
  }
}

@ApiTags('stats')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('activity')
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @ContractResponse('ActivityItemJson', { array: true })
  @Get()
  @ApiOperation({ summary: 'Recent sign-ups, access requests, decisions, publishes and accepted invitations, newest first' })
  list(
    @Query(new ListQueryPipe({ sortable: ['at'], defaultSort: { field: 'at', order: 'DESC' }, defaultLimit: 10 })) query: ListQuery,
  ): Promise<Page<ActivityItemJson>> {
    return this.activity.list(query);
  }
}
