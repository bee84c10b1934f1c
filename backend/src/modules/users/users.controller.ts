import { Body, Controller, Get, Param, Patch, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { parseListQuery } from '../../common/pagination';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../auth/auth-user';
import { ActivityService } from './activity.service';
import { SetRoleDto, UpdateProfileDto } from './users.dto';
import { USER_SORTABLE, UsersService } from './users.service';

@ApiTags('me') @ApiBearerAuth()
@Controller('me')
export class MeController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'The signed-in user, their role and profile' })
  me(@CurrentUser() user: AuthUser) {
    return this.users.getMe(user.id);
  }

  @Patch('profile')
  updateProfile(@CurrentUser() user: AuthUser, @Body() body: UpdateProfileDto) {
    return this.users.updateProfile(user.id, body.first_name, body.last_name);
  }
}

@ApiTags('users') @ApiBearerAuth()
@Roles('admin', 'super_admin')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'List users (simple-rest: sort, range, filter {q, role, id})' })
  list(@Query() query: Record<string, unknown>) {
    return this.users.list(parseListQuery(query, { sortable: USER_SORTABLE, defaultSort: { field: 'created_at', order: 'DESC' } }));
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string) {
    return this.users.getListItem(id);
  }

  @Put(':id/role')
  @ApiOperation({ summary: 'Set the role (super_admin: any role; admin: pcp or none on non-administrators)' })
  setRole(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: SetRoleDto) {
    return this.users.setRole(actor, id, body.role);
  }
}

@ApiTags('stats') @ApiBearerAuth()
@Roles('admin', 'super_admin')
@Controller('stats')
export class StatsController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'Counts for the admin overview' })
  stats() {
    return this.users.stats();
  }
}

@ApiTags('stats') @ApiBearerAuth()
@Roles('admin', 'super_admin')
@Controller('activity')
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get()
  @ApiOperation({ summary: 'Recent sign-ups, access requests, decisions, publishes and accepted invitations, newest first' })
  list(@Query() query: Record<string, unknown>) {
    return this.activity.list(parseListQuery(query, { sortable: ['at'], defaultSort: { field: 'at', order: 'DESC' }, defaultLimit: 10 }));
  }
}
