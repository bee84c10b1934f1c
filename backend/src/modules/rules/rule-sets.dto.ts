import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsReferenceId, IsRequiredText, Optional, trim } from '../parameters/api-helpers';

const NAME_REQUIRED = 'Please provide a rule set name.';

export class CreateRuleSetDto {
  @ApiProperty() @Transform(trim) @IsRequiredText(NAME_REQUIRED, 200)
  name: string;

  @ApiPropertyOptional({ nullable: true }) @Transform(trim) @IsOptional() @IsString() @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({ default: false }) @Optional() @IsBoolean()
  is_template?: boolean;

  @ApiPropertyOptional({ default: true }) @Optional() @IsBoolean()
  is_active?: boolean;
}

export class UpdateRuleSetDto {
  @ApiPropertyOptional() @Transform(trim) @Optional() @IsRequiredText(NAME_REQUIRED, 200)
  name?: string;

  @ApiPropertyOptional({ nullable: true }) @Transform(trim) @IsOptional() @IsString() @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional() @Optional() @IsBoolean()
  is_template?: boolean;

  @ApiPropertyOptional() @Optional() @IsBoolean()
  is_active?: boolean;
}

export class RuleSetActivationDto {
  @ApiProperty() @IsBoolean({ message: 'is_active must be true or false' })
  is_active: boolean;
}

export class RuleSetFromTemplateDto {
  @ApiProperty({ format: 'uuid' }) @IsReferenceId('template_id is required', 'template_id must be a rule set template id')
  template_id: string;

  @ApiPropertyOptional({ description: "Defaults to the template's name" }) @Transform(trim) @Optional() @IsRequiredText(NAME_REQUIRED, 200)
  name?: string;
}
