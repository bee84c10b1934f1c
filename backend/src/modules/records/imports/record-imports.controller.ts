import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type RecordImportJson } from '@cds/contracts';
import { CurrentUser, Roles, type AuthUser } from '../../../common/auth-user';
import { ContractBody, ContractResponse } from '../../../common/contract-response';
import type { ListQuery, Page } from '../../../common/pagination';
import { ListQueryPipe } from '../../../common/list-query.pipe';
import { ParseIdPipe } from '../../../common/uuid.pipe';
import { setHeader } from '../../../http/respond';
import { ImportBodyPipe, type ImportBody } from './import-request.pipe';
import { RecordImportsService } from './record-imports.service';

@ApiTags('records')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller()
export class RecordImportsController {
  constructor(private readonly imports: RecordImportsService) {}

  @ContractBody('RecordImportRequestJson', ['application/json'])
  @ContractResponse('RecordImportJson')
  @ApiConsumes('application/fhir+ndjson', 'application/json')
  @Post('fhir/\\$import')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Imports FHIR R4 resources as a background job: an application/fhir+ndjson body (one resource a line), or { inputFormat: "application/fhir+ndjson", input: [{ type, url }] } fetched from an allow-listed server (IMPORT_ALLOWED_BASES). 202 with the job; Content-Location names GET /api/jobs/:id. Invalid lines are skipped and reported by line number; the valid resources are stored together when every line is read, or nothing is stored if the job fails.',
  })
  async import(
    @Body(ImportBodyPipe) body: ImportBody,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: unknown,
  ): Promise<RecordImportJson> {
    const job =
      'ndjson' in body ? await this.imports.importUpload(body.ndjson, user.id) : await this.imports.importFromUrls(body.request, user.id);
    setHeader(res, 'Content-Location', `/api/jobs/${job.id}`);
    return job;
  }

  @ContractResponse('RecordImportJson', { array: true })
  @Get('jobs')
  @ApiOperation({ summary: 'Recent record imports, newest first (simple-rest: range)' })
  list(
    @Query(new ListQueryPipe({ sortable: ['created_at'], defaultSort: { field: 'created_at', order: 'DESC' } })) query: ListQuery,
  ): Promise<Page<RecordImportJson>> {
    return this.imports.list(query);
  }

  @ContractResponse('RecordImportJson')
  @Get('jobs/:id')
  @ApiOperation({
    summary: 'A record import: status, progress { done, total } in lines, stored and invalid counts, the first 100 skipped lines',
  })
  get(@Param('id', ParseIdPipe) id: string): Promise<RecordImportJson> {
    return this.imports.get(id);
  }
}
