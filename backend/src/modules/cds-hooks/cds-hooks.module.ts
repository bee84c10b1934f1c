import { Module } from '@nestjs/common';
import { AssessmentsModule } from '../assessments';
import { MeasureVersionsModule } from '../measure-versions';
import { RecordsModule } from '../records';
import { CdsClientsController } from './cds-clients.controller';
import { CdsPrefillController } from './cds-prefill.controller';
import { CdsServicesController } from './cds-services.controller';
import { CdsClientsService } from './cds-clients.service';
import { ClientJwtVerifier } from './client-jwt';
import { PatientViewService } from './patient-view.service';
import { PrefillTicketsModule } from './prefill-tickets.module';
import { RecordContextsModule } from './record-contexts.module';
import { RecordPrefill } from './record-prefill.service';
import { CardFeedback } from './card-feedback';
import { HookSnapshots } from './hook-snapshot';

/** CDS Hooks 2.0: EHRs call the published rule sets (issue 11). */
@Module({
  imports: [AssessmentsModule, RecordsModule, PrefillTicketsModule, RecordContextsModule, MeasureVersionsModule],
  controllers: [CdsServicesController, CdsClientsController, CdsPrefillController],
  providers: [CdsClientsService, ClientJwtVerifier, HookSnapshots, PatientViewService, CardFeedback, RecordPrefill],
  exports: [RecordPrefill],
})
export class CdsHooksModule {}
