import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ParameterChangeJson, ParameterJson, SeedResultJson } from '@cds/contracts';
import { ADMIN_ROLES } from '@cds/contracts';
import type { ListQuery, Page } from '../../common/pagination';
import { ListQueryPipe } from '../../common/list-query.pipe';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { CHANGE_FILTERS, CHANGE_SORTABLE, ParameterChangesService } from './parameter-changes.service';
import {
  ActivationDto,
  CloneParameterDto,
  CreateParameterDto,
  DeleteParameterDto,
  FromTemplateDto,
  UpdateParameterDto,
} from './parameters.dto';
import { PARAMETER_FILTERS, PARAMETER_SORTABLE, ParametersService } from './parameters.service';
import { ContractResponse } from '../../common/contract-response';
import { ReadOnlyEchoInterceptor } from '../../common/read-only-echo.interceptor';

@ApiTags('parameters')
@ApiBearerAuth()
@Controller('parameters')
@UseInterceptors(ReadOnlyEchoInterceptor)
export class ParametersController {
  constructor(private readonly parameters: ParametersService) {}

  @ContractResponse('ParameterJson', { array: true })
  @Get()
  @ApiOperation({
    summary:
      'Parameters (simple-rest; filter {q, category, data_type, is_template, is_active (default true; "all"), id}); any signed-in user',
  })
  list(
    @Query(
      new ListQueryPipe({ sortable: PARAMETER_SORTABLE, defaultSort: { field: 'display_name', order: 'ASC' }, filters: PARAMETER_FILTERS }),
    )
    query: ListQuery,
  ): Promise<Page<ParameterJson>> {
    return this.parameters.list(query);
  }

  @ContractResponse('ParameterJson', { array: true })
  @Get('templates')
  @ApiOperation({ summary: 'Parameter templates by display name, each with is_diabetes_specific' })
  templates(): Promise<ParameterJson[]> {
    return this.parameters.templates();
  }

  @ContractResponse('SeedResultJson')
  @Post('templates/seed')
  @HttpCode(200)
  @Roles(...ADMIN_ROLES)
  @ApiOperation({ summary: 'Create the six diabetes templates that do not exist yet → { created, message, templates }' })
  seed(@CurrentUser() actor: AuthUser): Promise<SeedResultJson> {
    return this.parameters.seedTemplates(actor);
  }

  @ContractResponse('ParameterJson')
  @Post('from-template')
  @Roles(...ADMIN_ROLES)
  @ApiOperation({ summary: 'Create a parameter from a template { template_id, overrides? } (404 unknown template, 409 name taken)' })
  fromTemplate(@CurrentUser() actor: AuthUser, @Body() body: FromTemplateDto): Promise<ParameterJson> {
    return this.parameters.fromTemplate(actor, body);
  }

  @ContractResponse('ParameterJson')
  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string): Promise<ParameterJson> {
    return this.parameters.get(id);
  }

  @ContractResponse('ParameterJson')
  @Post()
  @Roles(...ADMIN_ROLES)
  @ApiOperation({ summary: 'Create a custom parameter (409 when an active parameter already has the name)' })
  create(@CurrentUser() actor: AuthUser, @Body() body: CreateParameterDto): Promise<ParameterJson> {
    return this.parameters.create(actor, body);
  }

  @ContractResponse('ParameterJson')
  @Put(':id')
  @Roles(...ADMIN_ROLES)
  @ApiOperation({ summary: 'Edit; bumps the version and records the change (409 on a data type change while rules use it)' })
  update(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: UpdateParameterDto): Promise<ParameterJson> {
    return this.parameters.update(actor, id, body);
  }

  @ContractResponse('ParameterJson')
  @Delete(':id')
  @Roles(...ADMIN_ROLES)
  @ApiOperation({ summary: 'Delete a parameter no rule uses (409 otherwise: deactivate it instead); its history stays' })
  remove(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: DeleteParameterDto): Promise<ParameterJson> {
    return this.parameters.remove(actor, id, body.change_reason);
  }

  @ContractResponse('ParameterJson')
  @Post(':id/clone')
  @Roles(...ADMIN_ROLES)
  @ApiOperation({ summary: 'Copy a parameter under a new name { name, display_name? }' })
  clone(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: CloneParameterDto): Promise<ParameterJson> {
    return this.parameters.clone(actor, id, body);
  }

  @ContractResponse('ParameterJson')
  @Patch(':id/activation')
  @Roles(...ADMIN_ROLES)
  @ApiOperation({ summary: 'Activate or deactivate { is_active, change_reason? }' })
  setActivation(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: ActivationDto): Promise<ParameterJson> {
    return this.parameters.setActivation(actor, id, body);
  }
}

@ApiTags('parameters')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('parameter-changes')
export class ParameterChangesController {
  constructor(private readonly changes: ParameterChangesService) {}

  @ContractResponse('ParameterChangeJson', { array: true })
  @Get()
  @ApiOperation({
    summary: 'Parameter change history (simple-rest; filter {q, change_type, period: all|today|week|month, parameter_id, id})',
  })
  list(
    @Query(new ListQueryPipe({ sortable: CHANGE_SORTABLE, defaultSort: { field: 'changed_at', order: 'DESC' }, filters: CHANGE_FILTERS }))
    query: ListQuery,
  ): Promise<Page<ParameterChangeJson>> {
    return this.changes.list(query);
  }

  @ContractResponse('ParameterChangeJson')
  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string): Promise<ParameterChangeJson> {
    return this.changes.get(id);
  }
}
