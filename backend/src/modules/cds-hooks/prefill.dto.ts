import { IsString, Matches } from 'class-validator';

export class RedeemPrefillDto {
  @IsString({ message: 'ticket must be text (the prefill parameter of the card link)' })
  @Matches(/^[A-Za-z0-9_-]{16,100}$/, { message: 'ticket is not a prefill ticket' })
  ticket!: string;
}
