import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLINICAL_ROLES, type PanelJson, type PanelPatientJson, type PanelPrefillJson, type PanelTrendJson } from '@cds/contracts';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { ContractResponse } from '../../common/contract-response';
import { RecordPrefill } from '../cds-hooks';
import { MeasuresService } from './measures.service';
import { NoTrendParamsPipe, PanelPeriodPipe, PatientIdPipe, type PanelPeriod } from './panel-query.pipe';

@ApiTags('measures')
@ApiBearerAuth()
@Roles(...CLINICAL_ROLES)
@Controller('panel')
export class PanelController {
  constructor(
    private readonly measures: MeasuresService,
    private readonly prefill: RecordPrefill,
  ) {}

  @ContractResponse('PanelJson')
  @Get()
  @ApiOperation({
    summary:
      'The Panel: each shipped measure over the stored records for periodStart–periodEnd (dates; default the current calendar year): counts, score, and the gap list (eligible patients who miss the goal, and those the record leaves undetermined)',
  })
  panel(@Query(PanelPeriodPipe) period: PanelPeriod): Promise<PanelJson> {
    return this.measures.panel(period);
  }

  @ContractResponse('PanelTrendJson')
  @Get('trend')
  @ApiOperation({
    summary:
      "Each shipped measure's score at the end of each of the last 12 months (the current month last), each point the measure over the 12 months ending that month, with its numerator and eligible patients; 409 for panels above 2,000 patients",
  })
  trend(@Query(NoTrendParamsPipe) _none: Record<string, never>): Promise<PanelTrendJson> {
    return this.measures.panelTrend();
  }

  @ContractResponse('PanelPatientJson')
  @Get('patients/:patientId')
  @ApiOperation({
    summary:
      "One patient on each shipped measure for the period: where they stand, and each population's rules and the resources that decided it",
  })
  patient(@Param('patientId', PatientIdPipe) id: string, @Query(PanelPeriodPipe) period: PanelPeriod): Promise<PanelPatientJson> {
    return this.measures.panelPatient(id, period);
  }

  @ContractResponse('PanelPrefillJson')
  @Post('patients/:patientId/assessment-prefill')
  @HttpCode(201)
  @ApiOperation({
    summary:
      "A one-time prefill ticket with the stored record's latest values for the published rules' parameters: { url: /clinical-form?prefill=…, values }",
  })
  assessmentPrefill(@CurrentUser() user: AuthUser, @Param('patientId', PatientIdPipe) id: string): Promise<PanelPrefillJson> {
    return this.prefill.forPatient(id, user.id);
  }
}
