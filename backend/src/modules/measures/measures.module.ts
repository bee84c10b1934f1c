import { Module } from '@nestjs/common';
import { RecordsModule } from '../records';
import { MeasuresController } from './measures.controller';
import { MeasuresService } from './measures.service';

/** Quality measures over the clinic's stored records (issue 21), in the product's own rule model. */
@Module({
  imports: [RecordsModule],
  controllers: [MeasuresController],
  providers: [MeasuresService],
})
export class MeasuresModule {}
