import { Logger, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { CdsHooksModule } from '../cds-hooks';
import { MeasureVersionsModule } from '../measure-versions';
import { createJobQueue } from '../polish';
import { RecordsModule } from '../records';
import { ConformanceService } from './conformance.service';
import { MeasureDesignController } from './designer/measure-design.controller';
import { MeasureDesignService } from './designer/measure-design.service';
import { MeasureDraftService } from './designer/measure-draft.service';
import { MeasureVersionsService } from './designer/measure-versions.service';
import { MeasuresController } from './measures.controller';
import { MeasuresService } from './measures.service';
import { PanelController } from './panel.controller';
import { MeasureResultsRepository } from './runs/measure-results.repository';
import { MEASURE_RUN_JOB_QUEUE, MEASURE_RUN_QUEUE, MEASURE_RUN_QUEUE_OPTIONS, type MeasureRunJobData } from './runs/measure-runs.constants';
import { MeasureRunsController } from './runs/measure-runs.controller';
import { MeasureRunsProcessor } from './runs/measure-runs.processor';
import { MeasureRunsRepository } from './runs/measure-runs.repository';
import { MeasureRunsRunner } from './runs/measure-runs.runner';
import { MeasureRunsService } from './runs/measure-runs.service';

/** Quality measures over the clinic's stored records (issue 21), in the product's own rule model. */
@Module({
  imports: [RecordsModule, CdsHooksModule, MeasureVersionsModule],
  controllers: [MeasuresController, PanelController, MeasureRunsController, MeasureDesignController],
  providers: [
    {
      provide: MEASURE_RUN_JOB_QUEUE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const logger = new Logger('Queue');
        return createJobQueue<MeasureRunJobData>(config, MEASURE_RUN_QUEUE, MEASURE_RUN_QUEUE_OPTIONS, {
          warn: (m) => logger.warn(m),
          error: (m) => logger.error(m),
        });
      },
    },
    MeasuresService,
    MeasureResultsRepository,
    MeasureRunsRepository,
    MeasureRunsService,
    MeasureRunsProcessor,
    MeasureRunsRunner,
    ConformanceService,
    MeasureDesignService,
    MeasureDraftService,
    MeasureVersionsService,
  ],
  exports: [MeasureRunsRunner],
})
export class MeasuresModule {}
