import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type MeasureDesignJson, type MeasureDesignSummaryJson } from '@cds/contracts';
import { Roles } from '../../../common/auth-user';
import { ContractResponse } from '../../../common/contract-response';
import { MeasureDesignService } from './measure-design.service';

@ApiTags('measures')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('measures/designs')
export class MeasureDesignController {
  constructor(private readonly designs: MeasureDesignService) {}

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
}
