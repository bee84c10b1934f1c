import { Body, Controller, Get, HttpCode, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLINICAL_ROLES, type FhirResourceJson } from '@cds/contracts';
import { Roles } from '../../common/auth-user';
import { ContractResponse } from '../../common/contract-response';
import { FhirJsonInterceptor } from '../../common/fhir-json.interceptor';
import { EvaluateParametersPipe } from './evaluate-parameters.pipe';
import { EvaluateQueryPipe } from './evaluate-query.pipe';
import { MeasuresService, type EvaluateMeasureParams } from './measures.service';

const FHIR_JSON = { contentType: 'application/fhir+json' };

@ApiTags('measures')
@ApiBearerAuth()
@UseInterceptors(FhirJsonInterceptor)
@Roles(...CLINICAL_ROLES)
@Controller('fhir/Measure')
export class MeasuresController {
  constructor(private readonly measures: MeasuresService) {}

  @ContractResponse('FhirResourceJson', FHIR_JSON)
  @Get()
  @ApiOperation({ summary: 'The installed quality measures (CMS122, CMS951, CMS165) as a searchset Bundle of FHIR Measures' })
  list(): Promise<FhirResourceJson> {
    return this.measures.list();
  }

  @ContractResponse('FhirResourceJson', FHIR_JSON)
  @Get(':id')
  @ApiOperation({ summary: 'One installed measure as a FHIR Measure' })
  get(@Param('id') id: string): Promise<FhirResourceJson> {
    return this.measures.get(id);
  }

  @ContractResponse('FhirResourceJson', FHIR_JSON)
  @Get(':id/\\$evaluate-measure')
  @ApiOperation({
    summary:
      '$evaluate-measure over the stored records: periodStart, periodEnd (dates), reportType (subject | subject-list | population), subject (Patient/:id or Group/:id); a MeasureReport',
  })
  evaluate(@Param('id') id: string, @Query(EvaluateQueryPipe) query: EvaluateMeasureParams): Promise<FhirResourceJson> {
    return this.measures.evaluate(id, query);
  }

  @ContractResponse('FhirResourceJson', FHIR_JSON)
  @Post(':id/\\$evaluate-measure')
  @HttpCode(200)
  @ApiOperation({ summary: '$evaluate-measure with its parameters in the query or a FHIR Parameters body' })
  evaluateWithBody(
    @Param('id') id: string,
    @Query(EvaluateQueryPipe) query: EvaluateMeasureParams,
    @Body(EvaluateParametersPipe) body: EvaluateMeasureParams,
  ): Promise<FhirResourceJson> {
    // A parameter the body names wins over the query's.
    return this.measures.evaluate(id, { ...query, ...body });
  }
}
