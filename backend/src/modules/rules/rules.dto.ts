import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsReferenceId, IsRequiredText, Optional, trim } from '../../common/api-helpers';
import { MAX_ACTIONS, MAX_CONDITIONS } from './rule-content';

const NAME_REQUIRED = 'Please provide a rule name.';
const RULE_SET_REQUIRED = 'Rule set ID is required.';
const RULE_SET_INVALID = 'Rule set ID must be a rule set id.';
export const CASE_NAME = 'Please name the test case.';
const PRIORITY = 'Priority must be a whole number from 0 to 100.';
const CONDITIONS = 'conditions must be a list of condition objects';
const ACTIONS = 'actions must be a list of action objects';

class RuleContentFields {
  @ApiPropertyOptional({ default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    description: 'Citation of the guideline, e.g. "ADA Standards of Care in Diabetes—2026, Section 2"',
  })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(500)
  source?: string | null;

  @ApiPropertyOptional({ minimum: 0, maximum: 100, default: 0, description: 'Higher is evaluated first' })
  @Optional()
  @IsInt({ message: PRIORITY })
  @Min(0, { message: PRIORITY })
  @Max(100, { message: PRIORITY })
  priority?: number;

  @ApiPropertyOptional({
    description: '[{ parameter, operator, value, logic }] (legacy keys parameter_id, parameterId, field, name, logicOperator accepted)',
    type: 'array',
    items: { type: 'object' },
  })
  @Optional()
  @IsArray({ message: CONDITIONS })
  @ArrayMaxSize(MAX_CONDITIONS)
  @IsObject({ each: true, message: CONDITIONS })
  conditions?: Record<string, unknown>[];

  @ApiPropertyOptional({ description: '[{ type, severity, message, value? }]', type: 'array', items: { type: 'object' } })
  @Optional()
  @IsArray({ message: ACTIONS })
  @ArrayMaxSize(MAX_ACTIONS)
  @IsObject({ each: true, message: ACTIONS })
  actions?: Record<string, unknown>[];

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  is_active?: boolean;
}

export class CreateRuleDto extends RuleContentFields {
  @ApiProperty({ format: 'uuid' })
  @IsReferenceId(RULE_SET_REQUIRED, RULE_SET_INVALID)
  rule_set_id: string;

  @ApiProperty()
  @Transform(trim)
  @IsRequiredText(NAME_REQUIRED, 200)
  name: string;
}

export class UpdateRuleDto extends RuleContentFields {
  @ApiPropertyOptional({ format: 'uuid', description: 'Moves the rule to another rule set' })
  @Optional()
  @IsReferenceId(RULE_SET_REQUIRED, RULE_SET_INVALID)
  rule_set_id?: string;

  @ApiPropertyOptional()
  @Transform(trim)
  @Optional()
  @IsRequiredText(NAME_REQUIRED, 200)
  name?: string;
}

export class TestRuleDto {
  @ApiProperty({ description: 'Answers keyed by parameter id', example: { '<parameter id>': 7.2 } })
  @IsObject({ message: 'answers must be an object keyed by parameter id' })
  answers: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'The day "within days" is measured from (default: now)', example: '2025-06-01' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'reference_date must be an ISO date' })
  reference_date?: string | null;
}

const OUTCOMES = [true, false, 'unknown'];
const OUTCOME_MESSAGE = "expected_outcome must be true, false or 'unknown'";

export class CreateTestCaseDto extends TestRuleDto {
  @ApiProperty()
  @Transform(trim)
  @IsRequiredText(CASE_NAME, 200)
  name: string;

  @ApiProperty({ enum: OUTCOMES })
  @IsIn(OUTCOMES, { message: OUTCOME_MESSAGE })
  expected_outcome: true | false | 'unknown';
}

/** What editing a saved case may change, for rule test cases and rule-set vignettes alike. */
export class CaseEditFields {
  @ApiPropertyOptional()
  @Transform(trim)
  @Optional()
  @IsRequiredText(CASE_NAME, 200)
  name?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsObject({ message: 'answers must be an object keyed by parameter id' })
  answers?: Record<string, unknown>;

  @ApiPropertyOptional()
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'reference_date must be an ISO date' })
  reference_date?: string | null;
}

export class UpdateTestCaseDto extends CaseEditFields {
  @ApiPropertyOptional({ enum: OUTCOMES })
  @Optional()
  @IsIn(OUTCOMES, { message: OUTCOME_MESSAGE })
  expected_outcome?: true | false | 'unknown';
}

/** One rule of unsaved designer content, for live analysis. */
export class DraftRuleDto {
  @ApiPropertyOptional({ description: "A saved rule's id to replace it; omit for a new rule" })
  @Optional()
  @IsString()
  @MaxLength(100)
  id?: string;

  @ApiProperty()
  @Transform(trim)
  @IsRequiredText(NAME_REQUIRED, 200)
  name: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    description: 'Citation of the guideline, e.g. "ADA Standards of Care in Diabetes—2026, Section 2"',
  })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(500)
  source?: string | null;

  @ApiPropertyOptional()
  @Optional()
  @IsInt({ message: PRIORITY })
  @Min(0, { message: PRIORITY })
  @Max(100, { message: PRIORITY })
  priority?: number;

  @ApiProperty({ type: 'array', items: { type: 'object' } })
  @IsArray({ message: CONDITIONS })
  @ArrayMaxSize(MAX_CONDITIONS)
  @IsObject({ each: true, message: CONDITIONS })
  conditions: Record<string, unknown>[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  @Optional()
  @IsArray({ message: ACTIONS })
  @ArrayMaxSize(MAX_ACTIONS)
  @IsObject({ each: true, message: ACTIONS })
  actions?: Record<string, unknown>[];

  @ApiPropertyOptional({ description: 'false leaves the saved rule of this id out (as if deleted)' })
  @Optional()
  @IsBoolean()
  is_active?: boolean;
}

export class AnalyzeDraftDto {
  @ApiProperty({
    type: [DraftRuleDto],
    description: 'Replace the saved rules of the same id; the other active rules are analysed with them',
  })
  @IsArray({ message: 'rules must be a list' })
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => DraftRuleDto)
  rules: DraftRuleDto[];
}
