import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, MaxLength, Min, NotEquals } from 'class-validator';
import { IsReferenceId, Optional } from '../../common/api-helpers';
import { UUID } from '../../common/pagination';
import { fastAccept } from '../../common/validation';

export class StartAssessmentDto {
  @ApiPropertyOptional({ enum: ['clinical'], default: 'clinical' })
  @Optional()
  @IsIn(['clinical'], { message: "mode must be 'clinical'" })
  mode?: 'clinical';

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "The `record_context` of a prefill this user redeemed (POST /api/cds-prefill/redeem) within the last 60 minutes: the assessment keeps whose values they were and the results they were read from (the Panel's or the EHR's, as read then), shown on its case detail. One assessment per context; unknown, another user's, older or already used is 410 record_context_unavailable. Without it the assessment holds no patient identity.",
  })
  @Optional()
  @IsUUID('all', { message: 'record_context must be the record_context of a redeemed prefill' })
  record_context?: string;
}

/**
 * The everyday start ({ mode: 'clinical' } or {}), accepted without class-validator; a record_context, or anything else,
 * goes through the decorators above (answer-dto.spec.ts checks that this never accepts what they refuse).
 */
export function startAcceptedAsIs(b: Record<string, unknown>): boolean {
  for (const key in b) if (key !== 'mode') return false;
  return b.mode === undefined || b.mode === 'clinical';
}
fastAccept(StartAssessmentDto, startAcceptedAsIs);

export class AnswerDto {
  @ApiProperty({ format: 'uuid', description: 'The parameter of the question being answered' })
  @IsReferenceId('parameter_id is required', 'parameter_id must be a parameter id')
  parameter_id: string;

  @ApiProperty({
    description:
      "A measured number (in the parameter's unit, or in `unit`), a band { type: 'range', min, max, min_inclusive, max_inclusive } (null = open end), 'unknown' (not available), true/false, or an option value",
    example: 6.5,
  })
  @IsDefined({ message: 'value is required' })
  @NotEquals(null, { message: 'value is required' })
  value: unknown;

  @ApiPropertyOptional({
    description: "UCUM code of the unit the number was typed in; one of the question's units_accepted",
    example: 'mmol/L',
  })
  @IsOptional()
  @IsString({ message: 'unit must be a UCUM unit code' })
  @MaxLength(40, { message: 'unit must be a UCUM unit code' })
  unit?: string;

  @ApiPropertyOptional({ description: 'When the value was measured (ISO date or date-time, not in the future)', example: '2026-11-02' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'observed_at must be an ISO date' })
  observed_at?: string;

  @ApiPropertyOptional({
    enum: ['record', 'ehr'],
    description:
      'The value is one offered from the record context the assessment was started with (the stored record, or the EHR), confirmed unchanged: stored and shown as confirmed from there. Refused (400) when the assessment holds no record context of that origin',
  })
  @IsOptional()
  @IsIn(['record', 'ehr'], { message: "confirmed_from must be 'record' or 'ehr'" })
  confirmed_from?: 'record' | 'ehr';

  @ApiPropertyOptional({ description: 'The step the answer was given at; a different current step is 409 stale_step' })
  @IsOptional()
  @IsInt({ message: 'step must be a whole number' })
  @Min(1, { message: 'step must be a whole number' })
  step?: number;
}

const ANSWER_FIELDS = new Set(['parameter_id', 'value', 'unit', 'observed_at', 'confirmed_from', 'step']);

/**
 * The everyday answer, accepted without class-validator: known fields only, an id, a value, and each optional field absent
 * or plainly valid. An observation date, or anything doubtful, goes through the decorators above (answer-dto.spec.ts
 * checks that this never accepts what they refuse).
 */
export function answerAcceptedAsIs(b: Record<string, unknown>): boolean {
  for (const key in b) if (!ANSWER_FIELDS.has(key)) return false;
  return (
    typeof b.parameter_id === 'string' &&
    UUID.test(b.parameter_id) &&
    b.value !== undefined &&
    b.value !== null &&
    (b.unit === undefined || (typeof b.unit === 'string' && b.unit.length <= 40)) &&
    b.observed_at === undefined &&
    (b.confirmed_from === undefined || b.confirmed_from === 'record' || b.confirmed_from === 'ehr') &&
    (b.step === undefined || (typeof b.step === 'number' && Number.isInteger(b.step) && b.step >= 1))
  );
}
fastAccept(AnswerDto, answerAcceptedAsIs);

export class ChoiceDto {
  @ApiProperty({ format: 'uuid', description: 'One of the matching rules offered' })
  @IsReferenceId('rule_id is required', 'rule_id must be a rule id')
  rule_id: string;
}

export class AssessmentQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Add the rule-evaluation log' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'debug must be true or false' })
  debug?: 'true' | 'false';
}
