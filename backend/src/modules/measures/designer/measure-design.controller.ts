import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type MeasureDesignJson, type MeasureDesignSummaryJson, type MeasureImpactJson } from '@cds/contracts';
import { Roles } from '../../../common/auth-user';
import { ContractBody, ContractResponse } from '../../../common/contract-response';
import { DraftBodyPipe, type DraftBody } from './measure-draft';
import { MeasureDraftService } from './measure-draft.service';
import { MeasureDesignService } from './measure-design.service';

@ApiTags('measures')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('measures/designs')
export class MeasureDesignController {
  constructor(
    private readonly designs: MeasureDesignService,
    private readonly drafts: MeasureDraftService,
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
      "Impact preview of a measure draft: its population rules (on the measure's own record criteria) evaluated over every stored patient for periodStart–periodEnd (default the current calendar year) against the measure as it is; the patients whose initial population, denominator, exclusion or numerator changes, the draft's version and analysis. Nothing is stored or published",
  })
  impact(@Param('id') id: string, @Body(DraftBodyPipe) body: DraftBody): Promise<MeasureImpactJson> {
    return this.drafts.impact(id, body);
  }
}
