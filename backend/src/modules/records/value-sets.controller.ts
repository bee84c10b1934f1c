import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type ValueSetSummaryJson } from '@cds/contracts';
import { Roles } from '../../common/auth-user';
import { ContractResponse } from '../../common/contract-response';
import { RecordsService } from './records.service';

@ApiTags('records')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('value-sets')
export class ValueSetsController {
  constructor(private readonly records: RecordsService) {}

  @ContractResponse('ValueSetSummaryJson', { array: true })
  @Get()
  @ApiOperation({
    summary:
      'The value sets a criterion may name, by title: each stored one (loaded with POST /api/fhir), then each shipped one not stored; with its canonical URL, code count and code systems',
  })
  list(): Promise<ValueSetSummaryJson[]> {
    return this.records.valueSets();
  }
}
