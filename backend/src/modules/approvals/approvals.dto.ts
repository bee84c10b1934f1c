import { REQUESTABLE_ROLES } from '@cds/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

export class AccessRequestDto {
  @ApiProperty({ enum: REQUESTABLE_ROLES })
  @IsIn(REQUESTABLE_ROLES, { message: 'requested_role must be pcp or admin' })
  requested_role: (typeof REQUESTABLE_ROLES)[number];
}

export class RejectDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}
