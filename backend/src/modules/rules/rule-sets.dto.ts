import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { IsReferenceId, IsRequiredText, Optional, trim } from '../../common/api-helpers';
import { CASE_NAME, CaseEditFields, TestRuleDto } from './rules.dto';

const NAME_REQUIRED = 'Please provide a rule set name.';

export class CreateRuleSetDto {
  @ApiProperty()
  @Transform(trim)
  @IsRequiredText(NAME_REQUIRED, 200)
  name: string;

  @ApiPropertyOptional({ nullable: true })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({ nullable: true, example: 'ADA Standards of Care in Diabetes—2026, Section 2' })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(500)
  source?: string | null;

  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  is_template?: boolean;

  @ApiPropertyOptional({ default: true })
  @Optional()
  @IsBoolean()
  is_active?: boolean;
}

export class UpdateRuleSetDto {
  @ApiPropertyOptional()
  @Transform(trim)
  @Optional()
  @IsRequiredText(NAME_REQUIRED, 200)
  name?: string;

  @ApiPropertyOptional({ nullable: true })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({ nullable: true, example: 'ADA Standards of Care in Diabetes—2026, Section 2' })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(500)
  source?: string | null;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  is_template?: boolean;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  is_active?: boolean;
}

export class RuleSetActivationDto {
  @ApiProperty()
  @IsBoolean({ message: 'is_active must be true or false' })
  is_active: boolean;
}

export class RuleSetFromTemplateDto {
  @ApiProperty({ format: 'uuid' })
  @IsReferenceId('template_id is required', 'template_id must be a rule set template id')
  template_id: string;

  @ApiPropertyOptional({ description: "Defaults to the template's name" })
  @Transform(trim)
  @Optional()
  @IsRequiredText(NAME_REQUIRED, 200)
  name?: string;
}

export class WarningAcknowledgementDto {
  @ApiProperty({ description: 'Why the warnings are acceptable; recorded in the version with who and when' })
  @Transform(trim)
  @IsRequiredText('Give a reason for publishing despite the warnings.', 1000)
  reason: string;
}

export class PublishDto {
  @ApiPropertyOptional({ type: WarningAcknowledgementDto, description: 'Required when analysis finds warnings' })
  @IsOptional()
  @IsObject({ message: 'acknowledge_warnings must be an object { reason }' })
  @ValidateNested()
  @Type(() => WarningAcknowledgementDto)
  acknowledge_warnings?: WarningAcknowledgementDto;

  @ApiPropertyOptional({
    description: 'Id of the impact preview the admin reviewed (POST /api/rule-sets/:id/impact-preview); required to publish',
  })
  @IsOptional()
  @IsUUID('all', { message: 'impact_preview_id must be the id of an impact preview' })
  impact_preview_id?: string;
}

/** Answers to run a rule set's combination on, like a rule's test (`POST /api/rule-sets/:id/run`). */
export class RunVignetteDto extends TestRuleDto {}

const FIRED = 'expected_fired must be a list of rule ids';
const PRIMARY = 'expected_primary must be a rule id or null';

export class CreateVignetteDto extends RunVignetteDto {
  @ApiProperty()
  @Transform(trim)
  @IsRequiredText(CASE_NAME, 200)
  name: string;

  @ApiProperty({ type: [String], description: 'Ids of the rules these answers must fire (exactly these)' })
  @IsArray({ message: FIRED })
  @ArrayMaxSize(500)
  @IsString({ each: true, message: FIRED })
  @MaxLength(100, { each: true, message: FIRED })
  expected_fired: string[];

  @ApiProperty({ nullable: true, description: 'Id of the rule expected as the primary recommendation; null when none fires' })
  @IsOptional()
  @IsString({ message: PRIMARY })
  @MaxLength(100, { message: PRIMARY })
  expected_primary: string | null;
}

export class UpdateVignetteDto extends CaseEditFields {
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray({ message: FIRED })
  @ArrayMaxSize(500)
  @IsString({ each: true, message: FIRED })
  @MaxLength(100, { each: true, message: FIRED })
  expected_fired?: string[];

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsString({ message: PRIMARY })
  @MaxLength(100, { message: PRIMARY })
  expected_primary?: string | null;
}
