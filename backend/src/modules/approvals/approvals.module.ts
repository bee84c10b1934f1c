import { Module } from '@nestjs/common';
import { UsersModule } from '../users';
import { AccessRequestsModule } from './access-requests.module';
import { AccessRequestsController, ApprovalsController } from './approvals.controller';
import { ApprovalsService } from './approvals.service';

@Module({
  imports: [UsersModule, AccessRequestsModule],
  controllers: [AccessRequestsController, ApprovalsController],
  providers: [ApprovalsService],
})
export class ApprovalsModule {}
