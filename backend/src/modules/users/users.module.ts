import { Module } from '@nestjs/common';
import { ActivityRepository } from './activity.repository';
import { ActivityService } from './activity.service';
import { ActivityController, MeController, StatsController, UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  controllers: [MeController, UsersController, StatsController, ActivityController],
  providers: [UsersService, UsersRepository, ActivityService, ActivityRepository],
  exports: [UsersService, UsersRepository],
})
export class UsersModule {}
