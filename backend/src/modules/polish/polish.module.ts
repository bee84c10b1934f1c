import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Parameter } from '../parameters/parameter.entity';
import { POLISH_JOB_QUEUE, POLISH_QUEUE, POLISH_QUEUE_OPTIONS, type PolishJobData } from './polish.constants';
import { PolishController } from './polish.controller';
import { PolishProcessor } from './polish.processor';
import { PolishRunner } from './polish.runner';
import { PolishService } from './polish.service';
import { PolishRepository } from './polish.repository';
import { PolishProviders } from './providers/polish-providers';
import { QueueDashboard } from './queue-dashboard';
import { createJobQueue } from './queue/create-job-queue';

/** Question polishing: the queue (producer and consumer), the providers, the endpoint and the dashboard. */
@Module({
  imports: [TypeOrmModule.forFeature([Parameter])],
  controllers: [PolishController],
  providers: [
    {
      provide: POLISH_JOB_QUEUE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const logger = new Logger('Queue');
        return createJobQueue<PolishJobData>(
          config,
          POLISH_QUEUE,
          { ...POLISH_QUEUE_OPTIONS, concurrency: config.workerConcurrency },
          {
            warn: (m) => logger.warn(m),
            error: (m) => logger.error(m),
          },
        );
      },
    },
    PolishRepository,
    PolishProviders,
    PolishService,
    PolishProcessor,
    PolishRunner,
    QueueDashboard,
  ],
  exports: [PolishService, PolishRunner],
})
export class PolishModule {}
