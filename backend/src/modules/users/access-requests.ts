import type { Role } from '@cds/contracts';

/** A user's pending access request, as their own page shows it. */
export interface PendingAccessRequest {
  id: string;
  requested_role: Role;
  created_at: Date;
}

/**
 * What the users module asks of access requests, which the approvals module owns and provides
 * (`AccessRequestsModule`). A port rather than an import: approvals builds on the users module (it grants
 * the role), so importing the approvals index here would be a cycle.
 */
export abstract class AccessRequests {
  /** Of these users, those with a pending access request: one query for a whole page. */
  abstract pendingAmong(userIds: string[]): Promise<Set<string>>;
  /** The user's one pending request (a partial unique index allows at most one), or null. */
  abstract pendingOf(userId: string): Promise<PendingAccessRequest | null>;
  abstract pendingCount(): Promise<number>;
}
