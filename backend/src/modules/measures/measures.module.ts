import { Module } from '@nestjs/common';
import { CdsHooksModule } from '../cds-hooks';
import { RecordsModule } from '../records';
import { MeasuresController } from './measures.controller';
import { MeasuresService } from './measures.service';
import { PanelController } from './panel.controller';

/** Quality measures over the clinic's stored records (issue 21), in the product's own rule model. */
@Module({
  imports: [RecordsModule, CdsHooksModule],
  controllers: [MeasuresController, PanelController],
  providers: [MeasuresService],
})
export class MeasuresModule {}
