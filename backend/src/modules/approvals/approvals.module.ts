import { Module } from '@nestjs/common';
import { UsersModule } from '../users';
import { AccessRequestsController, ApprovalsController } from './approvals.controller';
import { ApprovalsRepository } from './approvals.repository';
import { ApprovalsService } from './approvals.service';

@Module({
  imports: [UsersModule],
  controllers: [AccessRequestsController, ApprovalsController],
  providers: [ApprovalsService, ApprovalsRepository],
})
export class ApprovalsModule {}
