import { Module } from '@nestjs/common';
import { AccessRequestsController, ApprovalsController } from './approvals.controller';
import { ApprovalsService } from './approvals.service';

@Module({ controllers: [AccessRequestsController, ApprovalsController], providers: [ApprovalsService] })
export class ApprovalsModule {}
