import { Module } from '@nestjs/common';
import { PolishModule } from '../polish/polish.module';
import { ParameterChangesService } from './parameter-changes.service';
import { ParameterChangesController, ParametersController } from './parameters.controller';
import { ParametersService } from './parameters.service';

@Module({
  imports: [PolishModule], // polish: queues question polishing after a save
  controllers: [ParametersController, ParameterChangesController],
  providers: [ParametersService, ParameterChangesService],
  exports: [ParametersService],
})
export class ParametersModule {}
