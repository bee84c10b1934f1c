import { Module } from '@nestjs/common';
import { MeController, StatsController, UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  controllers: [MeController, UsersController, StatsController],
  providers: [UsersService],
  exports: [UsersService],
})
export class UsersModule {}
