import { Module } from '@nestjs/common';
import { ActivityService } from './activity.service';
import { ActivityController, MeController, StatsController, UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  controllers: [MeController, UsersController, StatsController, ActivityController],
  providers: [UsersService, ActivityService],
  exports: [UsersService],
})
export class UsersModule {}
