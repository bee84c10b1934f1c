import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** The spec's remote-function body: camelCase, as the product spec names it. */
export class PolishQuestionDto {
  @ApiProperty({ example: 'HbA1c', maxLength: 200 })
  @Transform(trim)
  @IsDefined({ message: 'displayName is required' })
  @IsString({ message: 'displayName must be text' })
  @MinLength(1, { message: 'displayName is required' })
  @MaxLength(200)
  displayName: string;

  @ApiProperty({ example: 'hba1c', maxLength: 100 })
  @Transform(trim)
  @IsDefined({ message: 'parameterName is required' })
  @IsString({ message: 'parameterName must be text' })
  @MinLength(1, { message: 'parameterName is required' })
  @MaxLength(100)
  parameterName: string;
}

export class PolishQuestionResponse {
  @ApiProperty({ example: "What was the patient's most recent HbA1c result (%)?" })
  polishedQuestion: string;
}
