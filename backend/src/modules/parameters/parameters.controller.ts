import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { parseListQuery } from '../../common/pagination';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../auth/auth-user';
import { CHANGE_SORTABLE, ParameterChangesService } from './parameter-changes.service';
import { ActivationDto, CloneParameterDto, CreateParameterDto, DeleteParameterDto, FromTemplateDto, UpdateParameterDto } from './parameters.dto';
import { PARAMETER_SORTABLE, ParametersService } from './parameters.service';

const ADMIN = ['admin', 'super_admin'] as const;

@ApiTags('parameters') @ApiBearerAuth()
@Controller('parameters')
export class ParametersController {
  constructor(private readonly parameters: ParametersService) {}

  @Get()
  @ApiOperation({ summary: 'Parameters (simple-rest; filter {q, category, data_type, is_template, is_active (default true; "all"), id}); any signed-in user' })
  list(@Query() query: Record<string, unknown>) {
    return this.parameters.list(parseListQuery(query, { sortable: PARAMETER_SORTABLE, defaultSort: { field: 'display_name', order: 'ASC' } }));
  }

  @Get('templates')
  @ApiOperation({ summary: 'Parameter templates by display name, each with is_diabetes_specific' })
  templates() {
    return this.parameters.templates();
  }

  @Post('templates/seed') @HttpCode(200) @Roles(...ADMIN)
  @ApiOperation({ summary: 'Create the six diabetes templates that do not exist yet → { created, message, templates }' })
  seed(@CurrentUser() actor: AuthUser) {
    return this.parameters.seedTemplates(actor);
  }

  @Post('from-template') @Roles(...ADMIN)
  @ApiOperation({ summary: 'Create a parameter from a template { template_id, overrides? } (404 unknown template, 409 name taken)' })
  fromTemplate(@CurrentUser() actor: AuthUser, @Body() body: FromTemplateDto) {
    return this.parameters.fromTemplate(actor, body);
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string) {
    return this.parameters.get(id);
  }

  @Post() @Roles(...ADMIN)
  @ApiOperation({ summary: 'Create a custom parameter (409 when an active parameter already has the name)' })
  create(@CurrentUser() actor: AuthUser, @Body() body: CreateParameterDto) {
    return this.parameters.create(actor, body);
  }

  @Put(':id') @Roles(...ADMIN)
  @ApiOperation({ summary: 'Edit; bumps the version and records the change (409 on a data type change while rules use it)' })
  update(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: UpdateParameterDto) {
    return this.parameters.update(actor, id, body);
  }

  @Delete(':id') @Roles(...ADMIN)
  @ApiOperation({ summary: 'Delete a parameter no rule uses (409 otherwise: deactivate it instead); its history stays' })
  remove(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: DeleteParameterDto) {
    return this.parameters.remove(actor, id, body.change_reason);
  }

  @Post(':id/clone') @Roles(...ADMIN)
  @ApiOperation({ summary: 'Copy a parameter under a new name { name, display_name? }' })
  clone(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: CloneParameterDto) {
    return this.parameters.clone(actor, id, body);
  }

  @Patch(':id/activation') @Roles(...ADMIN)
  @ApiOperation({ summary: 'Activate or deactivate { is_active, change_reason? }' })
  setActivation(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: ActivationDto) {
    return this.parameters.setActivation(actor, id, body);
  }
}

@ApiTags('parameters') @ApiBearerAuth()
@Roles(...ADMIN)
@Controller('parameter-changes')
export class ParameterChangesController {
  constructor(private readonly changes: ParameterChangesService) {}

  @Get()
  @ApiOperation({ summary: 'Parameter change history (simple-rest; filter {q, change_type, period: all|today|week|month, parameter_id, id})' })
  list(@Query() query: Record<string, unknown>) {
    return this.changes.list(parseListQuery(query, { sortable: CHANGE_SORTABLE, defaultSort: { field: 'changed_at', order: 'DESC' } }));
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string) {
    return this.changes.get(id);
  }
}
