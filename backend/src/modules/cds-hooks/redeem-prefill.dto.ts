import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

export class RedeemPrefillDto {
  @ApiProperty({ description: 'The prefill parameter of the card link', example: 'F1Om07essXyISGySn05OPdoGJEESEiVs' })
  @IsString({ message: 'ticket must be text (the prefill parameter of the card link)' })
  @Matches(/^[A-Za-z0-9_-]{16,100}$/, { message: 'ticket is not a prefill ticket' })
  ticket!: string;
}
