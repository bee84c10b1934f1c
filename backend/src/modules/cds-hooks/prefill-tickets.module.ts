import { Module } from '@nestjs/common';
import { CdsHooksRepository } from './cds-hooks.repository';
import { PrefillTickets } from './prefill-tickets';

/** The CDS Hooks tables and the prefill tickets, shared by the CDS Hooks services. */
@Module({
  providers: [CdsHooksRepository, PrefillTickets],
  exports: [CdsHooksRepository, PrefillTickets],
})
export class PrefillTicketsModule {}
