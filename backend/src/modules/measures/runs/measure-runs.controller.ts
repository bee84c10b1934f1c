import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type ConformanceJson, type MeasureRunJson } from '@cds/contracts';
import { CurrentUser, Roles, type AuthUser } from '../../../common/auth-user';
import { ContractBody, ContractResponse } from '../../../common/contract-response';
import type { ListQuery, Page } from '../../../common/pagination';
import { ListQueryPipe } from '../../../common/list-query.pipe';
import { ParseIdPipe } from '../../../common/uuid.pipe';
import { setHeader } from '../../../http/respond';
import { ConformanceService } from '../conformance.service';
import { MeasureRunsService } from './measure-runs.service';
import { MeasureRunRequestPipe, type MeasureRunRequest } from './run-request.pipe';

@ApiTags('measures')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller()
export class MeasureRunsController {
  constructor(
    private readonly runs: MeasureRunsService,
    private readonly conformance: ConformanceService,
  ) {}

  @ContractBody('MeasureRunRequestJson')
  @ContractResponse('MeasureRunJson')
  @Post('measure-runs')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Starts a population run: the shipped measures (or measure_ids) over every patient for period_start–period_end (default the current calendar year), as a background job; each result is stored per patient, measure version and period, and a patient whose stored result is current is not evaluated again. 202 with the run; Content-Location names GET /api/measure-runs/:id',
  })
  async start(
    @Body(MeasureRunRequestPipe) body: MeasureRunRequest,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: unknown,
  ): Promise<MeasureRunJson> {
    const run = await this.runs.start(body, user.id);
    setHeader(res, 'Content-Location', `/api/measure-runs/${run.id}`);
    return run;
  }

  @ContractResponse('MeasureRunJson', { array: true })
  @Get('measure-runs')
  @ApiOperation({ summary: 'Recent population runs, newest first (simple-rest: range)' })
  list(
    @Query(new ListQueryPipe({ sortable: ['created_at'], defaultSort: { field: 'created_at', order: 'DESC' } })) query: ListQuery,
  ): Promise<Page<MeasureRunJson>> {
    return this.runs.list(query);
  }

  @ContractResponse('MeasureRunJson')
  @Get('measure-runs/:id')
  @ApiOperation({
    summary: 'A population run: status, progress { done, total } in patients, and how many were evaluated (the rest were current)',
  })
  get(@Param('id', ParseIdPipe) id: string): Promise<MeasureRunJson> {
    return this.runs.get(id);
  }

  @ContractResponse('ConformanceJson')
  @Get('measures/conformance')
  @ApiOperation({
    summary:
      "The official eCQM test decks (ECQM_DIR) run through the product's own evaluation: each case's expected and actual populations; available false when the decks are absent",
  })
  conformanceReport(): Promise<ConformanceJson> {
    return this.conformance.report();
  }
}
