import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import type { ImpactPreviewJson } from '@cds/contracts';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES } from '@cds/contracts';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { ImpactPreviewService } from './impact-preview.service';
import { ContractResponse } from '../../common/contract-response';

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
  })
  create(@CurrentUser() actor: AuthUser, @Param('id', ParseIdPipe) id: string): Promise<ImpactPreviewJson> {
    return this.previews.create(actor, id);
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
