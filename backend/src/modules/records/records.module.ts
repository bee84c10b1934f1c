import { Module } from '@nestjs/common';
import { RecordsController } from './records.controller';
import { RecordsRepository } from './records.repository';
import { RecordsService } from './records.service';
import { ValueSets } from './value-sets';
import { ValueSetsController } from './value-sets.controller';

/** Patients' FHIR resources in: the store the criteria read for hook calls, prefill and measures. */
@Module({
  controllers: [RecordsController, ValueSetsController],
  providers: [RecordsService, RecordsRepository, ValueSets],
  exports: [RecordsRepository, ValueSets],
})
export class RecordsModule {}
