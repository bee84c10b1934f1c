import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLINICAL_ROLES, type CdsPrefillJson } from '@cds/contracts';
import { CurrentUser, Roles, type AuthUser } from '../../common/auth-user';
import { ContractResponse } from '../../common/contract-response';
import { PrefillTickets } from './prefill-tickets';
import { RedeemPrefillDto } from './redeem-prefill.dto';

/** A card's link opens /clinical-form with a ticket; the signed-in clinician redeems it here, once. */
@ApiTags('cds-hooks')
@ApiBearerAuth()
@Roles(...CLINICAL_ROLES)
@Controller('cds-prefill')
export class CdsPrefillController {
  constructor(private readonly tickets: PrefillTickets) {}

  @ContractResponse('CdsPrefillJson')
  @Post('redeem')
  @HttpCode(200)
  @ApiOperation({ summary: "Redeem a card link's one-time prefill ticket { ticket } → { values, issued_at }; 410 when used or expired" })
  redeem(@CurrentUser() user: AuthUser, @Body() body: RedeemPrefillDto): Promise<CdsPrefillJson> {
    return this.tickets.redeem(body.ticket, user.id);
  }
}
