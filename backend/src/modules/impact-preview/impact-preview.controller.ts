import { Controller, Get, Headers, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import type { ImpactPreviewJson } from '@cds/contracts';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES } from '@cds/contracts';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { ImpactPreviewService } from './impact-preview.service';
import { ContractResponse } from '../../common/contract-response';
import { PROGRESS_TYPE, wantsProgress } from '../../common/progress-stream';

@ApiTags('rule-sets')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('rule-sets')
export class ImpactPreviewController {
  constructor(private readonly previews: ImpactPreviewService) {}

  @ContractResponse('ImpactPreviewJson')
  @Post(':id/impact-preview')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'How publishing the draft would reclassify recorded assessments, the vignettes and 10,000 generated patients: per group, transitions of the primary recommendation with the rule responsible and examples. Stored; publish names its id',
    description: `With \`Accept: ${PROGRESS_TYPE}\` the answer is streamed, one JSON object a line: \`{ "progress": { "done", "total" } }\` after each slice of patients compared (the three groups together), then \`{ "preview": ImpactPreviewJson }\`, or \`{ "error": <error body> }\` if it failed after the first line. A rule set that does not exist is a 404 before any line.`,
  })
  async create(
    @CurrentUser() actor: AuthUser,
    @Param('id', ParseIdPipe) id: string,
    @Headers('accept') accept?: string,
  ): Promise<ImpactPreviewJson | StreamableFile> {
    if (!wantsProgress(accept)) return this.previews.create(actor, id);
    const stream = this.previews.streamed(actor, await this.previews.prepare(id));
    return new StreamableFile(stream, { type: PROGRESS_TYPE });
  }

  @ContractResponse('ImpactPreviewJson')
  @Get(':id/impact-preview/:previewId')
  @ApiOperation({ summary: 'One stored impact preview (version_id is set once a version was published with it)' })
  get(@Param('id', ParseIdPipe) id: string, @Param('previewId', ParseIdPipe) previewId: string): Promise<ImpactPreviewJson> {
    return this.previews.get(id, previewId);
  }

  @ContractResponse('ImpactPreviewJson')
  @Get(':id/versions/:number/impact-preview')
  @ApiOperation({ summary: 'The impact preview a version was published with' })
  forVersion(@Param('id', ParseIdPipe) id: string, @Param('number') number: string): Promise<ImpactPreviewJson> {
    return this.previews.forVersion(id, number);
  }
}
