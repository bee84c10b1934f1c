import { Body, Controller, Delete, Get, HttpCode, Injectable, Param, Patch, Post, Put, Query, type PipeTransform } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { notFound } from '../../common/errors';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../auth/auth-user';
import { AnalyzeDraftDto } from './rules.dto';
import { CreateRuleSetDto, RuleSetActivationDto, RuleSetFromTemplateDto, UpdateRuleSetDto } from './rule-sets.dto';
import { parseRuleSetQuery, RuleSetsService } from './rule-sets.service';
import { RuleVersionsService } from './rule-versions.service';

/** A version number in the path (1 to 999999999); anything else names no version (404). */
@Injectable()
class VersionNumberPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9]\d{0,8}$/.test(value)) throw notFound('Version');
    return Number(value);
  }
}

@ApiTags('rule-sets') @ApiBearerAuth()
@Roles('admin', 'super_admin')
@Controller('rule-sets')
export class RuleSetsController {
  constructor(private readonly ruleSets: RuleSetsService, private readonly versions: RuleVersionsService) {}

  @Get()
  @ApiOperation({ summary: 'Rule sets, newest first (simple-rest; filter {published, template, search, is_active, id}; also ?published=&template=&search=&limit=&offset=, 10 per page)' })
  list(@Query() query: Record<string, unknown>) {
    return this.ruleSets.list(parseRuleSetQuery(query));
  }

  @Get('templates')
  @ApiOperation({ summary: 'Active template rule sets, by name' })
  templates() {
    return this.ruleSets.templates();
  }

  @Post('from-template')
  @ApiOperation({ summary: 'A new rule set from a template { template_id, name? }, with a copy of its active rules' })
  fromTemplate(@CurrentUser() actor: AuthUser, @Body() body: RuleSetFromTemplateDto) {
    return this.ruleSets.fromTemplate(actor, body);
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string) {
    return this.ruleSets.get(id);
  }

  @Post()
  @ApiOperation({ summary: 'Create a rule set { name, description? } (blank name → 400)' })
  create(@CurrentUser() actor: AuthUser, @Body() body: CreateRuleSetDto) {
    return this.ruleSets.create(actor, body);
  }

  @Put(':id')
  update(@Param('id', ParseIdPipe) id: string, @Body() body: UpdateRuleSetDto) {
    return this.ruleSets.update(id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Soft delete: hidden everywhere and no longer used by assessments; published versions are kept' })
  remove(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string) {
    return this.ruleSets.remove(actor, id);
  }

  @Patch(':id/activation')
  @ApiOperation({ summary: 'Activate or deactivate { is_active }; returns the rule set' })
  setActivation(@Param('id', ParseIdPipe) id: string, @Body() body: RuleSetActivationDto) {
    return this.ruleSets.setActivation(id, body.is_active);
  }

  @Post(':id/publish') @HttpCode(201)
  @ApiOperation({ summary: 'Publish the active rules as the next immutable version (409: no rules, failing test cases, or nothing changed)' })
  publish(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string) {
    return this.versions.publish(actor, id);
  }

  @Get(':id/versions')
  @ApiOperation({ summary: 'Published versions, newest first (without their content)' })
  listVersions(@Param('id', ParseIdPipe) id: string) {
    return this.versions.versions(id);
  }

  @Get(':id/versions/:number')
  @ApiOperation({ summary: 'One published version with its rules and parameters' })
  version(@Param('id', ParseIdPipe) id: string, @Param('number', VersionNumberPipe) number: number) {
    return this.versions.version(id, number);
  }

  @Get(':id/diff')
  @ApiOperation({ summary: "Rules added, removed and changed: ?from=N&to=M; from defaults to the latest version, to to the unpublished draft ('draft')" })
  diff(@Param('id', ParseIdPipe) id: string, @Query('from') from?: string, @Query('to') to?: string) {
    return this.versions.diff(id, from, to);
  }

  @Get(':id/analysis')
  @ApiOperation({ summary: 'Static analysis of the saved active rules: findings with severity, rule ids and a message' })
  analysis(@Param('id', ParseIdPipe) id: string) {
    return this.ruleSets.analysis(id);
  }

  @Post(':id/analysis') @HttpCode(200)
  @ApiOperation({ summary: 'Static analysis with unsaved designer content { rules } merged over the saved rules' })
  analyzeDraft(@Param('id', ParseIdPipe) id: string, @Body() body: AnalyzeDraftDto) {
    return this.ruleSets.analyzeDraft(id, body);
  }
}
