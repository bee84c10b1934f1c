import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, StreamableFile, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ADMIN_ROLES,
  type MeasureDesignJson,
  type MeasureDesignSummaryJson,
  type MeasureImpactJson,
  type MeasureVersionDetailJson,
  type MeasureVersionJson,
} from '@cds/contracts';
import { CurrentUser, Roles, type AuthUser } from '../../../common/auth-user';
import { ContractBody, ContractResponse } from '../../../common/contract-response';
import { PROGRESS_TYPE, wantsProgress } from '../../../common/progress-stream';
import { ReadOnlyEchoInterceptor } from '../../../common/read-only-echo.interceptor';
import { DraftBodyPipe, type DraftBody } from './measure-draft';
import { MeasureDraftService } from './measure-draft.service';
import { MeasureDesignService } from './measure-design.service';
import {
  DraftPublishPipe,
  DraftSavePipe,
  RevisionQueryPipe,
  VersionParamPipe,
  type DraftPublish,
  type DraftSave,
} from './measure-version-bodies';
import { MeasureVersionsService } from './measure-versions.service';

@ApiTags('measures')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@UseInterceptors(ReadOnlyEchoInterceptor)
@Controller('measures/designs')
export class MeasureDesignController {
  constructor(
    private readonly designs: MeasureDesignService,
    private readonly drafts: MeasureDraftService,
    private readonly versions: MeasureVersionsService,
  ) {}

  @ContractResponse('MeasureDesignSummaryJson', { array: true })
  @Get()
  @ApiOperation({
    summary:
      "The shipped measures in the designer: each one's current version, rules, criteria, analysis findings and official cases agreed",
  })
  list(): Promise<MeasureDesignSummaryJson[]> {
    return this.designs.list();
  }

  @ContractResponse('MeasureDesignJson')
  @Get(':id')
  @ApiOperation({
    summary:
      'One shipped measure as a rule set of the product (read only): populations as rule groups with conditions in words, record criteria (resource type, value sets, window, take), measurement period, version against the shipped value sets, static analysis, and the official cases as vignettes',
  })
  get(@Param('id') id: string): Promise<MeasureDesignJson> {
    return this.designs.get(id);
  }

  @ContractBody('MeasureDraftRequestJson')
  @ContractResponse('MeasureImpactJson')
  @Post(':id/impact')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Impact preview of a measure draft: its population rules (on the measure's own record criteria) evaluated over every stored patient for periodStart–periodEnd (default the current calendar year) against the measure as it is (read from the stored results where current for its version and the period, else evaluated now: current_from counts each); the patients whose initial population, denominator, exclusion or numerator changes, the draft's version and analysis. Nothing is stored or published",
    description: `With \`Accept: ${PROGRESS_TYPE}\` the answer is streamed, one JSON object a line: \`{ "progress": { "done", "total" } }\` first with done 0, then after each slice of at most 500 patients compared, then \`{ "preview": MeasureImpactJson }\`, or \`{ "error": <error body> }\` if it failed after the first line. An unknown measure (404), a draft the engine cannot read (400) or missing value sets (409) are plain error answers before any line.`,
  })
  async impact(
    @Param('id') id: string,
    @Body(DraftBodyPipe) body: DraftBody,
    @Headers('accept') accept?: string,
  ): Promise<MeasureImpactJson | StreamableFile> {
    if (!wantsProgress(accept)) return this.drafts.impact(id, body);
    return new StreamableFile(this.drafts.streamed(await this.drafts.prepare(id, body)), { type: PROGRESS_TYPE });
  }

  @ContractResponse('MeasureVersionJson', { array: true })
  @Get(':id/versions')
  @ApiOperation({
    summary:
      "The measure's versions, newest first: its draft, the local versions published (and retired), and version 1, the CMS definition as shipped",
  })
  history(@Param('id') id: string): Promise<MeasureVersionJson[]> {
    return this.versions.history(id);
  }

  @ContractResponse('MeasureVersionDetailJson')
  @Get(':id/versions/:version')
  @ApiOperation({ summary: 'One version of the measure with its population rules, as a draft sends them' })
  version(@Param('id') id: string, @Param('version', VersionParamPipe) version: number): Promise<MeasureVersionDetailJson> {
    return this.versions.version(id, version);
  }

  @ContractBody('MeasureDraftSaveJson')
  @ContractResponse('MeasureVersionDetailJson')
  @Put(':id/draft')
  @ApiOperation({
    summary:
      "Saves the measure's one draft of population rules (record criteria and value sets stay as shipped): draft_revision null starts one, else the revision edited; 409 when another draft exists or the draft was saved since",
  })
  saveDraft(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body(DraftSavePipe) body: DraftSave,
  ): Promise<MeasureVersionDetailJson> {
    return this.versions.saveDraft(user, id, body);
  }

  @Delete(':id/draft')
  @HttpCode(204)
  @ApiOperation({ summary: 'Discards the draft at ?revision=N (409 when it was saved since); the published version stays as it is' })
  discardDraft(@Param('id') id: string, @Query(RevisionQueryPipe) query: { revision: number }): Promise<void> {
    return this.versions.discardDraft(id, query.revision);
  }

  @ContractBody('MeasurePublishJson')
  @ContractResponse('MeasureVersionDetailJson')
  @Post(':id/draft/publish')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Publishes the draft at draft_revision with a change note: from then on the Panel, $evaluate-measure, measure runs and CDS Hooks gap cards read it, as a local version. 400 with each problem when the engine cannot read it; 409 on analysis errors, a stale revision, or nothing changed',
  })
  publish(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body(DraftPublishPipe) body: DraftPublish,
  ): Promise<MeasureVersionDetailJson> {
    return this.versions.publish(user, id, body);
  }
}
