import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

// Presence of email/password is checked by the service so the spec's exact message is returned.
export class SignUpMetadataDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  first_name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  last_name?: string;
}

export class SignUpDto {
  @ApiProperty()
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @ApiProperty()
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional({ type: SignUpMetadataDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SignUpMetadataDto)
  data?: SignUpMetadataDto;
}

export class TokenDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  refresh_token?: string;
}

export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @MaxLength(1024)
  current_password: string;

  @ApiProperty()
  @IsString()
  @MaxLength(1024)
  password: string;
}
