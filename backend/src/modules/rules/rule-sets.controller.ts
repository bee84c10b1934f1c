import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Injectable,
  Param,
  Patch,
  Post,
  Put,
  Query,
  type PipeTransform,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type {
  AnalysisJson,
  DiffJson,
  RuleSetJson,
  FhirBundleJson,
  VersionJson,
  VersionSummaryJson,
  PublishCheckJson,
  RuleSetAnalytics,
  VignetteRunJson,
  BoundaryVignetteJson,
  VignetteJson,
} from '@cds/contracts';
import type { ListQuery, Page } from '../../common/pagination';
import { ADMIN_ROLES } from '@cds/contracts';
import { notFound } from '../../common/errors';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { AnalyzeDraftDto } from './rules.dto';
import {
  CreateRuleSetDto,
  CreateVignetteDto,
  PublishDto,
  RuleSetActivationDto,
  RuleSetFromTemplateDto,
  RunVignetteDto,
  UpdateRuleSetDto,
  UpdateVignetteDto,
} from './rule-sets.dto';
import { RuleSetVignettesService } from './rule-set-vignettes.service';
import { RuleSetsService } from './rule-sets.service';
import { AnalyticsQueryDto } from './rule-analytics.dto';
import { RuleAnalyticsService } from './rule-analytics.service';
import { ruleSetListQuery } from './rule-set-query';
import { RuleVersionsService } from './rule-versions.service';
import { ContractResponse } from '../../common/contract-response';
import { ReadOnlyEchoInterceptor } from '../../common/read-only-echo.interceptor';
import { FhirJsonInterceptor } from '../../common/fhir-json.interceptor';
import { RuleVersionFhir } from './rule-version-fhir';

/** A version number in the path (1 to 999999999); anything else names no version (404). */
@Injectable()
export class VersionNumberPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9]\d{0,8}$/.test(value)) throw notFound('Version');
    return Number(value);
  }
}

@ApiTags('rule-sets')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('rule-sets')
@UseInterceptors(ReadOnlyEchoInterceptor)
export class RuleSetsController {
  constructor(
    private readonly ruleSets: RuleSetsService,
    private readonly versions: RuleVersionsService,
    private readonly vignettes: RuleSetVignettesService,
    private readonly fhir: RuleVersionFhir,
    private readonly analytics: RuleAnalyticsService,
  ) {}

  @ContractResponse('RuleSetJson', { array: true })
  @Get()
  @ApiOperation({
    summary:
      'Rule sets, newest first (simple-rest; filter {published, template, search, is_active, id}; also ?published=&template=&search=&limit=&offset=, 10 per page)',
  })
  list(@Query(ruleSetListQuery()) query: ListQuery): Promise<Page<RuleSetJson>> {
    return this.ruleSets.list(query);
  }

  @ContractResponse('RuleSetJson', { array: true })
  @Get('templates')
  @ApiOperation({ summary: 'Active template rule sets, by name' })
  templates(): Promise<RuleSetJson[]> {
    return this.ruleSets.templates();
  }

  @ContractResponse('RuleSetJson')
  @Post('from-template')
  @ApiOperation({ summary: 'A new rule set from a template { template_id, name? }, with a copy of its active rules' })
  fromTemplate(@CurrentUser() actor: AuthUser, @Body() body: RuleSetFromTemplateDto): Promise<RuleSetJson> {
    return this.ruleSets.fromTemplate(actor, body);
  }

  @ContractResponse('RuleSetJson')
  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string): Promise<RuleSetJson> {
    return this.ruleSets.get(id);
  }

  @ContractResponse('RuleSetJson')
  @Post()
  @ApiOperation({ summary: 'Create a rule set { name, description? } (blank name → 400)' })
  create(@CurrentUser() actor: AuthUser, @Body() body: CreateRuleSetDto): Promise<RuleSetJson> {
    return this.ruleSets.create(actor, body);
  }

  @ContractResponse('RuleSetJson')
  @Put(':id')
  update(@Param('id', ParseIdPipe) id: string, @Body() body: UpdateRuleSetDto): Promise<RuleSetJson> {
    return this.ruleSets.update(id, body);
  }

  @ContractResponse('RuleSetJson')
  @Delete(':id')
  @ApiOperation({ summary: 'Soft delete: hidden everywhere and no longer used by assessments; published versions are kept' })
  remove(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string): Promise<RuleSetJson> {
    return this.ruleSets.remove(actor, id);
  }

  @ContractResponse('RuleSetJson')
  @Patch(':id/activation')
  @ApiOperation({ summary: 'Activate or deactivate { is_active }; returns the rule set' })
  setActivation(@Param('id', ParseIdPipe) id: string, @Body() body: RuleSetActivationDto): Promise<RuleSetJson> {
    return this.ruleSets.setActivation(id, body.is_active);
  }

  @ContractResponse('VersionJson')
  @Post(':id/publish')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Publish the active rules as the next immutable version { impact_preview_id, acknowledge_warnings?: { reason } } (409: no rules, nothing changed, analysis errors, failing vignettes or test cases, warnings not acknowledged, impact preview missing, used or stale; details hold the findings)',
  })
  publish(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string, @Body() body: PublishDto): Promise<VersionJson> {
    return this.versions.publish(actor, id, body);
  }

  @ContractResponse('PublishCheckJson')
  @Get(':id/publish-check')
  @ApiOperation({
    summary:
      'What publishing now would meet: has_changes, errors, warnings, failing vignettes and test cases, on the combination a PCP gets',
  })
  publishCheck(@Param('id', ParseIdPipe) id: string): Promise<PublishCheckJson> {
    return this.versions.check(id);
  }

  @ContractResponse('VignetteRunJson')
  @Post(':id/run')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Run a patient vignette { answers, reference_date? } through this set with every active published set → fired, primary',
  })
  run(@Param('id', ParseIdPipe) id: string, @Body() body: RunVignetteDto): Promise<VignetteRunJson> {
    return this.vignettes.run(id, body);
  }

  @ContractResponse('RuleSetAnalytics')
  @Get(':id/analytics')
  @ApiOperation({
    summary:
      "Each rule's match count and share of the completed assessments that evaluated the set, and its no-match rate, by period (?period=day|week|month&from=&to=, UTC)",
  })
  analyticsOf(@Param('id', ParseIdPipe) id: string, @Query() query: AnalyticsQueryDto): Promise<RuleSetAnalytics> {
    return this.analytics.forRuleSet(id, query);
  }

  @ContractResponse('BoundaryVignetteJson', { array: true })
  @Get(':id/boundary-vignettes')
  @ApiOperation({
    summary: 'For every cut-point the rules use: t − one step, t, t + one step at the parameter precision, with the result each gives',
  })
  boundaries(@Param('id', ParseIdPipe) id: string): Promise<BoundaryVignetteJson[]> {
    return this.vignettes.boundaries(id);
  }

  @ContractResponse('VignetteJson', { array: true })
  @Get(':id/test-cases')
  @ApiOperation({ summary: 'Saved patient vignettes, each run now (actual, passed)' })
  listVignettes(@Param('id', ParseIdPipe) id: string): Promise<VignetteJson[]> {
    return this.vignettes.list(id);
  }

  @ContractResponse('VignetteJson')
  @Post(':id/test-cases')
  @ApiOperation({ summary: 'Save a patient vignette { name, answers, expected_fired: [rule ids], expected_primary: rule id | null }' })
  createVignette(
    @CurrentUser() actor: AuthUser,
    @Param('id', ParseIdPipe) id: string,
    @Body() body: CreateVignetteDto,
  ): Promise<VignetteJson> {
    return this.vignettes.create(actor, id, body);
  }

  @ContractResponse('VignetteJson')
  @Put(':id/test-cases/:caseId')
  updateVignette(
    @Param('id', ParseIdPipe) id: string,
    @Param('caseId', ParseIdPipe) caseId: string,
    @Body() body: UpdateVignetteDto,
  ): Promise<VignetteJson> {
    return this.vignettes.update(id, caseId, body);
  }

  @ContractResponse('VignetteJson')
  @Delete(':id/test-cases/:caseId')
  removeVignette(@Param('id', ParseIdPipe) id: string, @Param('caseId', ParseIdPipe) caseId: string): Promise<VignetteJson> {
    return this.vignettes.remove(id, caseId);
  }

  @ContractResponse('VersionSummaryJson', { array: true })
  @Get(':id/versions')
  @ApiOperation({ summary: 'Published versions, newest first (without their content)' })
  listVersions(@Param('id', ParseIdPipe) id: string): Promise<VersionSummaryJson[]> {
    return this.versions.versions(id);
  }

  @ContractResponse('VersionJson')
  @Get(':id/versions/:number')
  @ApiOperation({ summary: 'One published version with its rules and parameters' })
  version(@Param('id', ParseIdPipe) id: string, @Param('number', VersionNumberPipe) number: number): Promise<VersionJson> {
    return this.versions.version(id, number);
  }

  @ApiTags('fhir')
  @ContractResponse('FhirBundleJson', { contentType: 'application/fhir+json' })
  @UseInterceptors(FhirJsonInterceptor)
  @Get(':id/versions/:number/fhir')
  @ApiOperation({ summary: 'A published version as a FHIR R4 Bundle: its PlanDefinition and the Library of its conditions' })
  versionFhir(@Param('id', ParseIdPipe) id: string, @Param('number', VersionNumberPipe) number: number): Promise<FhirBundleJson> {
    return this.fhir.bundle(id, number);
  }

  @ContractResponse('DiffJson')
  @Get(':id/diff')
  @ApiOperation({
    summary: "Rules added, removed and changed: ?from=N&to=M; from defaults to the latest version, to to the unpublished draft ('draft')",
  })
  diff(@Param('id', ParseIdPipe) id: string, @Query('from') from?: string, @Query('to') to?: string): Promise<DiffJson> {
    return this.versions.diff(id, from, to);
  }

  @ContractResponse('AnalysisJson')
  @Get(':id/analysis')
  @ApiOperation({ summary: 'Static analysis of the saved active rules: findings with severity, rule ids and a message' })
  analysis(@Param('id', ParseIdPipe) id: string): Promise<AnalysisJson> {
    return this.ruleSets.analysis(id);
  }

  @ContractResponse('AnalysisJson')
  @Post(':id/analysis')
  @HttpCode(200)
  @ApiOperation({ summary: 'Static analysis with unsaved designer content { rules } merged over the saved rules' })
  analyzeDraft(@Param('id', ParseIdPipe) id: string, @Body() body: AnalyzeDraftDto): Promise<AnalysisJson> {
    return this.ruleSets.analyzeDraft(id, body);
  }
}
