import { Module } from '@nestjs/common';
import { AssessmentsModule } from '../assessments';
import { RecordsModule } from '../records';
import { CdsClientsController, CdsPrefillController, CdsServicesController } from './cds-hooks.controller';
import { CdsClientsService } from './cds-clients.service';
import { ClientJwtVerifier } from './client-jwt';
import { PatientViewService } from './patient-view.service';
import { PrefillTickets } from './prefill.service';
import { RecordPrefill } from './record-prefill.service';
import { CardFeedback } from './feedback.service';
import { CdsHooksRepository } from './cds-hooks.repository';
import { HookSnapshots } from './hook-snapshot';

/** CDS Hooks 2.0: EHRs call the published rule sets (issue 11). */
@Module({
  imports: [AssessmentsModule, RecordsModule],
  controllers: [CdsServicesController, CdsClientsController, CdsPrefillController],
  providers: [
    CdsHooksRepository,
    CdsClientsService,
    ClientJwtVerifier,
    HookSnapshots,
    PatientViewService,
    PrefillTickets,
    CardFeedback,
    RecordPrefill,
  ],
  exports: [RecordPrefill],
})
export class CdsHooksModule {}
