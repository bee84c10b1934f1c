import { Module } from '@nestjs/common';
import { MeasureVersionsRepository } from './measure-versions.repository';
import { PublishedMeasures } from './published-measures';

/**
 * Saved versions of the quality measures (issue 21) and the one source of the measures as published, for the
 * measures module (Panel, $evaluate-measure, runs, designer) and the CDS Hooks gap cards alike.
 */
@Module({
  providers: [MeasureVersionsRepository, PublishedMeasures],
  exports: [MeasureVersionsRepository, PublishedMeasures],
})
export class MeasureVersionsModule {}
