import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsISO8601, IsOptional, Min, NotEquals } from 'class-validator';
import { IsReferenceId, Optional } from '../parameters/api-helpers';

export class StartAssessmentDto {
  @ApiPropertyOptional({ enum: ['clinical'], default: 'clinical' })
  @Optional() @IsIn(['clinical'], { message: "mode must be 'clinical'" })
  mode?: 'clinical';
}

export class AnswerDto {
  @ApiProperty({ format: 'uuid', description: 'The parameter of the question being answered' })
  @IsReferenceId('parameter_id is required', 'parameter_id must be a parameter id')
  parameter_id: string;

  @ApiProperty({ description: "One of the options' values, or a value of the parameter's type", example: 7.2 })
  @IsDefined({ message: 'value is required' }) @NotEquals(null, { message: 'value is required' })
  value: unknown;

  @ApiPropertyOptional({ description: 'The step the answer was given at; a different current step is 409 stale_step' })
  @IsOptional() @IsInt({ message: 'step must be a whole number' }) @Min(1, { message: 'step must be a whole number' })
  step?: number;
}

export class ChoiceDto {
  @ApiProperty({ format: 'uuid', description: 'One of the matching rules offered' })
  @IsReferenceId('rule_id is required', 'rule_id must be a rule id')
  rule_id: string;
}

export const ANALYTICS_PERIODS = ['day', 'week', 'month'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

export class AnalyticsQueryDto {
  @ApiPropertyOptional({ enum: ANALYTICS_PERIODS, default: 'month' })
  @IsOptional() @IsIn(ANALYTICS_PERIODS, { message: 'period must be day, week or month' })
  period?: AnalyticsPeriod;

  @ApiPropertyOptional({ description: 'Start (inclusive, ISO date or time, UTC); default: 11 periods before the one holding `to`' })
  @IsOptional() @IsISO8601({ strict: true }, { message: 'from must be an ISO date' })
  from?: string;

  @ApiPropertyOptional({ description: 'End (exclusive, ISO date or time, UTC); default: now' })
  @IsOptional() @IsISO8601({ strict: true }, { message: 'to must be an ISO date' })
  to?: string;
}

export class AssessmentQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Add the rule-evaluation log' })
  @IsOptional() @IsIn(['true', 'false'], { message: 'debug must be true or false' })
  debug?: 'true' | 'false';
}
