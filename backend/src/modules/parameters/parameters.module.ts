import { Module } from '@nestjs/common';
import { PolishModule } from '../polish';
import { ParameterChangesRepository } from './parameter-changes.repository';
import { ParameterChangesService } from './parameter-changes.service';
import { ParameterChangesController, ParametersController } from './parameters.controller';
import { ParametersRepository } from './parameters.repository';
import { ParametersService } from './parameters.service';

@Module({
  imports: [PolishModule], // polish: queues question polishing after a save
  controllers: [ParametersController, ParameterChangesController],
  providers: [ParametersService, ParametersRepository, ParameterChangesService, ParameterChangesRepository],
  exports: [ParametersService],
})
export class ParametersModule {}
