import { Global, Module } from '@nestjs/common';
import { RecordContexts } from '../assessments';
import { PrefillTickets } from './prefill-tickets';
import { PrefillTicketsModule } from './prefill-tickets.module';

/**
 * The record contexts an assessment may take when it starts, named by the prefill tickets. Global, and
 * only this port: the assessments module (which the CDS Hooks services build on) names RecordContexts and
 * nothing of this module.
 */
@Global()
@Module({
  imports: [PrefillTicketsModule],
  providers: [{ provide: RecordContexts, useExisting: PrefillTickets }],
  exports: [RecordContexts],
})
export class RecordContextsModule {}
