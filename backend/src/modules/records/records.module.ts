import { Logger, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { createJobQueue } from '../polish';
import {
  RECORD_IMPORT_JOB_QUEUE,
  RECORD_IMPORT_QUEUE,
  RECORD_IMPORT_QUEUE_OPTIONS,
  type RecordImportJobData,
} from './imports/record-imports.constants';
import { RecordImportsController } from './imports/record-imports.controller';
import { RecordImportsProcessor } from './imports/record-imports.processor';
import { RecordImportsRepository } from './imports/record-imports.repository';
import { RecordImportsRunner } from './imports/record-imports.runner';
import { RecordImportsService } from './imports/record-imports.service';
import { RecordsController } from './records.controller';
import { RecordsRepository } from './records.repository';
import { RecordsService } from './records.service';
import { ValueSets } from './value-sets';
import { ValueSetsController } from './value-sets.controller';

/** Patients' FHIR resources in (Bundles, NDJSON $import jobs): the store the criteria read for hook calls, prefill and measures. */
@Module({
  controllers: [RecordsController, ValueSetsController, RecordImportsController],
  providers: [
    {
      provide: RECORD_IMPORT_JOB_QUEUE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const logger = new Logger('Queue');
        return createJobQueue<RecordImportJobData>(config, RECORD_IMPORT_QUEUE, RECORD_IMPORT_QUEUE_OPTIONS, {
          warn: (m) => logger.warn(m),
          error: (m) => logger.error(m),
        });
      },
    },
    RecordsService,
    RecordsRepository,
    ValueSets,
    RecordImportsRepository,
    RecordImportsService,
    RecordImportsProcessor,
    RecordImportsRunner,
  ],
  exports: [RecordsRepository, ValueSets, RecordImportsRunner, RecordImportsService],
})
export class RecordsModule {}
