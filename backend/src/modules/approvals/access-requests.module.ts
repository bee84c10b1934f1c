import { Global, Module } from '@nestjs/common';
import { AccessRequests } from '../users';
import { ApprovalsRepository } from './approvals.repository';

/**
 * The users module's questions about access requests (who has one pending, how many are), answered from
 * this module's table. Global, and only this port: the users module names AccessRequests and nothing of
 * this module.
 */
@Global()
@Module({
  providers: [ApprovalsRepository, { provide: AccessRequests, useExisting: ApprovalsRepository }],
  exports: [AccessRequests, ApprovalsRepository],
})
export class AccessRequestsModule {}
