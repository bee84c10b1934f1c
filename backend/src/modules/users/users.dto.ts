import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { ROLES, type Role } from '@cds/contracts';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class UpdateProfileDto {
  @ApiProperty()
  @Transform(trim)
  @IsDefined({ message: 'First name is required' })
  @IsString({ message: 'First name is required' })
  @MinLength(1, { message: 'First name is required' })
  @MaxLength(100, { message: 'First name must be at most 100 characters' })
  first_name: string;

  @ApiProperty()
  @Transform(trim)
  @IsDefined({ message: 'Last name is required' })
  @IsString({ message: 'Last name is required' })
  @MinLength(1, { message: 'Last name is required' })
  @MaxLength(100, { message: 'Last name must be at most 100 characters' })
  last_name: string;
}

export class SetRoleDto {
  @ApiProperty({ enum: [...ROLES, null], nullable: true })
  @ValidateIf((_, v) => v !== null)
  @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')} or null` })
  role: Role | null;
}
