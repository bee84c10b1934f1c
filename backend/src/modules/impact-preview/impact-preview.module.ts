import { Global, Module } from '@nestjs/common';
import { PublishImpactCheck } from '../rules';
import { ImpactPreviewController } from './impact-preview.controller';
import { ImpactPreviewRepository } from './impact-preview.repository';
import { ImpactPreviewService } from './impact-preview.service';

/**
 * Provides the rules module's PublishImpactCheck: publishing checks and keeps the preview the
 * admin saw. Global because the rules module cannot import this one: this one reads drafts and
 * versions through the rules module, and the dependency runs one way.
 */
@Global()
@Module({
  controllers: [ImpactPreviewController],
  providers: [ImpactPreviewService, ImpactPreviewRepository, { provide: PublishImpactCheck, useExisting: ImpactPreviewService }],
  exports: [PublishImpactCheck],
})
export class ImpactPreviewModule {}
