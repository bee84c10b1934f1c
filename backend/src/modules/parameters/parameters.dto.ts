import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  registerDecorator,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { IsReferenceId, IsRequiredText, Optional, trim } from '../../common/api-helpers';
import { criterionProblems } from '@cds/engine';
import { loincProblem } from './loinc';
import {
  PARAMETER_CATEGORIES,
  PARAMETER_DATA_TYPES,
  PARAMETER_LIMITS as LIMITS,
  type ParameterCategory,
  type ParameterDataType,
} from '@cds/contracts';
import { conversionProblem } from '@cds/engine';

const VALIDATION_RULES_MAX_CHARS = LIMITS.validation_rules;
const QUESTION_OVERRIDE_MAX = LIMITS.question_override;

/** Free-form, but bounded, and an `options` list (select answers) must be label/value pairs. */
export function validationRulesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'validation_rules must be an object';
  if (JSON.stringify(value).length > VALIDATION_RULES_MAX_CHARS)
    return `validation_rules may hold at most ${VALIDATION_RULES_MAX_CHARS} characters`;
  const accepted = (value as { units_accepted?: unknown }).units_accepted;
  if (accepted !== undefined) {
    if (!Array.isArray(accepted)) return 'validation_rules.units_accepted must be a list of { code, factor, offset?, equivalents? }';
    for (const [i, c] of accepted.entries()) {
      const problem = conversionProblem(c);
      if (problem) return `validation_rules.units_accepted[${i}]: ${problem}`;
    }
  }
  const options = (value as { options?: unknown }).options;
  if (options === undefined) return null;
  const ok =
    Array.isArray(options) &&
    options.every(
      (o) =>
        typeof o === 'object' &&
        o !== null &&
        !Array.isArray(o) &&
        typeof (o as { label?: unknown }).label === 'string' &&
        (o as { label: string }).label.trim() !== '' &&
        ['string', 'number', 'boolean'].includes(typeof (o as { value?: unknown }).value),
    );
  return ok ? null : 'validation_rules.options must be a list of { label, value } with a text label and a text, number or true/false value';
}

/** `validation_rules.criterion`: how the parameter is read from the patient's record over time (engine criteria). */
function recordCriterionProblem(value: unknown): string | null {
  const criterion = (value as { criterion?: unknown } | null)?.criterion;
  if (criterion === undefined) return null;
  const problems = criterionProblems(criterion, 'validation_rules.criterion');
  if (problems.length) return problems.map((p) => `${p.field} ${p.message}`).join('; ');
  // A mistyped LOINC code would read another test's results: checked as the parameter's own code is.
  const codes = (criterion as { codes?: unknown }).codes;
  for (const token of Array.isArray(codes) ? codes : []) {
    if (typeof token !== 'string' || !token.startsWith(`${LOINC_SYSTEM}|`)) continue;
    const problem = loincProblem(token.slice(LOINC_SYSTEM.length + 1));
    if (problem) return `validation_rules.criterion.codes: ${problem}`;
  }
  return null;
}

const LOINC_SYSTEM = 'http://loinc.org';

function IsValidationRules(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isValidationRules',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => validationRulesProblem(value) === null && recordCriterionProblem(value) === null,
        defaultMessage: (args) =>
          validationRulesProblem(args?.value) ?? recordCriterionProblem(args?.value) ?? 'validation_rules is invalid',
      },
    });
}

const DATA_TYPE_MESSAGE = `Data type must be one of: ${PARAMETER_DATA_TYPES.join(', ')}`;
const CATEGORY_MESSAGE = `Category must be one of: ${PARAMETER_CATEGORIES.join(', ')}`;

/** Format and mod-10 check digit: a mistyped code would link the parameter to another test. */
function IsLoinc(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isLoinc',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || value === '' || loincProblem(value) === null,
        defaultMessage: (args) => loincProblem(String(args?.value)) ?? 'loinc_code is invalid',
      },
    });
}

/** Fields an administrator may write on any parameter (create, update, template overrides). */
class ParameterTextFields {
  @ApiPropertyOptional({ nullable: true })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({ nullable: true, example: 'mg/dL' })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.units)
  units?: string | null;

  @ApiPropertyOptional({ description: 'Free-form; may carry options: [{ label, value }]' })
  @Optional()
  @IsValidationRules()
  validation_rules?: Record<string, unknown>;

  @ApiPropertyOptional({ nullable: true, example: '4548-4' })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @IsLoinc()
  loinc_code?: string | null;
}

export class CreateParameterDto extends ParameterTextFields {
  @ApiProperty({ example: 'hba1c' })
  @Transform(trim)
  @IsRequiredText('Parameter name is required.', LIMITS.name)
  name: string;

  @ApiProperty({ example: 'HbA1c' })
  @Transform(trim)
  @IsRequiredText('Display name is required.', LIMITS.display_name)
  display_name: string;

  @ApiProperty({ enum: PARAMETER_DATA_TYPES })
  @IsIn(PARAMETER_DATA_TYPES, { message: DATA_TYPE_MESSAGE })
  data_type: ParameterDataType;

  @ApiProperty({ enum: PARAMETER_CATEGORIES })
  @IsIn(PARAMETER_CATEGORIES, { message: CATEGORY_MESSAGE })
  category: ParameterCategory;

  @ApiPropertyOptional({ default: true })
  @Optional()
  @IsBoolean()
  is_required?: boolean;

  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  is_template?: boolean;

  @ApiPropertyOptional({ nullable: true })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.template_name)
  template_name?: string | null;

  @ApiPropertyOptional({ nullable: true, maxLength: QUESTION_OVERRIDE_MAX })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(QUESTION_OVERRIDE_MAX)
  question_override?: string | null;

  @ApiPropertyOptional()
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.change_reason)
  change_reason?: string;
}

export class UpdateParameterDto extends ParameterTextFields {
  @ApiPropertyOptional()
  @Transform(trim)
  @Optional()
  @IsRequiredText('Parameter name is required.', LIMITS.name)
  name?: string;

  @ApiPropertyOptional()
  @Transform(trim)
  @Optional()
  @IsRequiredText('Display name is required.', LIMITS.display_name)
  display_name?: string;

  @ApiPropertyOptional({ enum: PARAMETER_DATA_TYPES })
  @Optional()
  @IsIn(PARAMETER_DATA_TYPES, { message: DATA_TYPE_MESSAGE })
  data_type?: ParameterDataType;

  @ApiPropertyOptional({ enum: PARAMETER_CATEGORIES })
  @Optional()
  @IsIn(PARAMETER_CATEGORIES, { message: CATEGORY_MESSAGE })
  category?: ParameterCategory;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  is_required?: boolean;

  @ApiPropertyOptional({ nullable: true })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.template_name)
  template_name?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    maxLength: QUESTION_OVERRIDE_MAX,
    description: 'Own wording of the question; null to use the polished or default one',
  })
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(QUESTION_OVERRIDE_MAX)
  question_override?: string | null;

  @ApiPropertyOptional()
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.change_reason)
  change_reason?: string;
}

/** What a template's copy may change (docs/product-spec.md section 7); data type and category are the template's. */
export class TemplateOverridesDto extends ParameterTextFields {
  @ApiPropertyOptional()
  @Transform(trim)
  @Optional()
  @IsRequiredText('Parameter name is required.', LIMITS.name)
  name?: string;

  @ApiPropertyOptional()
  @Transform(trim)
  @Optional()
  @IsRequiredText('Display name is required.', LIMITS.display_name)
  display_name?: string;

  @ApiPropertyOptional({ default: true })
  @Optional()
  @IsBoolean()
  is_required?: boolean;
}

export class FromTemplateDto {
  @ApiProperty({ format: 'uuid' })
  @IsReferenceId('template_id is required', 'template_id must be a parameter template id')
  template_id: string;

  @ApiPropertyOptional({ type: TemplateOverridesDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => TemplateOverridesDto)
  overrides?: TemplateOverridesDto;

  @ApiPropertyOptional()
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.change_reason)
  change_reason?: string;
}

export class CloneParameterDto {
  @ApiProperty()
  @Transform(trim)
  @IsRequiredText('Parameter name is required.', LIMITS.name)
  name: string;

  @ApiPropertyOptional({ description: "Defaults to the source's display name plus ' (copy)'" })
  @Transform(trim)
  @Optional()
  @IsRequiredText('Display name is required.', LIMITS.display_name)
  display_name?: string;

  @ApiPropertyOptional()
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.change_reason)
  change_reason?: string;
}

export class ActivationDto {
  @ApiProperty()
  @IsBoolean({ message: 'is_active must be true or false' })
  is_active: boolean;

  @ApiPropertyOptional()
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.change_reason)
  change_reason?: string;
}

export class DeleteParameterDto {
  @ApiPropertyOptional()
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.change_reason)
  change_reason?: string;
}
