import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '@cds/contracts';

/** GET /api/rule-sets/:id/analytics' query. */
export class AnalyticsQueryDto {
  @ApiPropertyOptional({ enum: ANALYTICS_PERIODS, default: 'month' })
  @IsOptional()
  @IsIn(ANALYTICS_PERIODS, { message: 'period must be day, week or month' })
  period?: AnalyticsPeriod;

  @ApiPropertyOptional({ description: 'Start (inclusive, ISO date or time, UTC); default: 11 periods before the one holding `to`' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO date' })
  from?: string;

  @ApiPropertyOptional({ description: 'End (exclusive, ISO date or time, UTC); default: now' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO date' })
  to?: string;
}
