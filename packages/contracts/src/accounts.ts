/**
 * Accounts: auth, me, users, access requests (approvals), invitations, and the admin overview's
 * stats and activity feed. Request and response bodies as docs/api.md describes them.
 */
import type { Role } from './roles';

/** Length limits the API enforces (and the forms show). */
export const ACCOUNT_LIMITS = {
  email: 254,
  password: 1024,
  first_name: 100,
  last_name: 100,
  invitation_token: 200,
  reject_reason: 1000,
} as const;

/** The password policy's length rule (the server adds its other reasons: common, sequence, e-mail). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/** The server's words for a password of the wrong length, so a form can flag it before sending; null when the length is fine. */
export function passwordLengthProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters long`;
  if (password.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters long`;
  return null;
}

// ---- auth ----

/** `POST /api/auth/signup`. */
export interface SignUpRequest {
  email: string;
  password: string;
  data?: { first_name?: string; last_name?: string };
}

/** `POST /api/auth/token?grant_type=password|refresh_token`. */
export interface TokenRequest {
  email?: string;
  password?: string;
  refresh_token?: string;
}

/** `PUT /api/auth/user`. */
export interface ChangePasswordRequest {
  current_password: string;
  password: string;
}

export type LogoutScope = 'global' | 'local' | 'others';

/** `GET /api/auth/user`, and the user inside a session. */
export interface UserJson {
  id: string;
  email: string;
  created_at: string;
  email_confirmed_at: string | null;
  role: Role | null;
  user_metadata: { first_name: string | null; last_name: string | null; role: Role | null };
}

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  /** Unix time in seconds. */
  expires_at: number;
  token_type: 'bearer';
}

/** Answer to sign-up, sign-in, refresh and accepting an invitation. */
export interface SessionJson extends IssuedTokens {
  user: UserJson;
}

// ---- me ----

export interface ProfileJson {
  id: string;
  first_name: string | null;
  last_name: string | null;
  /** Null until the profile is first saved. */
  updated_at: string | null;
}

/** `PATCH /api/me/profile`. */
export interface UpdateProfileRequest {
  first_name: string;
  last_name: string;
}

/** The caller's access request still awaiting an administrator, as `GET /api/me` reports it. */
export interface PendingAccessRequestJson {
  id: string;
  requested_role: Role;
  created_at: string;
}

/** `GET /api/me`. */
export interface MeJson {
  user: UserJson;
  role: Role | null;
  profile: ProfileJson;
  /** Null when nothing is pending: the dashboard offers 'Request PCP Access' again. */
  pending_access_request: PendingAccessRequestJson | null;
}

// ---- users ----

/** `GET /api/users` (one row), `GET /api/users/:id`, `PUT /api/users/:id/role`. */
export interface UserListItemJson {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: Role | null;
  status: 'active' | 'pending_approval';
  created_at: string;
}

/** `PUT /api/users/:id/role`; null removes the role. */
export interface SetRoleRequest {
  role: Role | null;
}

// ---- approvals ----

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface ApprovalJson {
  id: string;
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  current_role: Role | null;
  requested_role: Role;
  status: ApprovalStatus;
  decided_by: string | null;
  decided_by_email: string | null;
  decided_at: string | null;
  reason: string | null;
  created_at: string;
}

/** `POST /api/approvals`. */
export interface AccessRequestBody {
  requested_role: 'pcp' | 'admin';
}

/** `POST /api/approvals/:id/reject`. */
export interface RejectRequest {
  reason?: string;
}

// ---- invitations ----

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

/** `GET /api/invitations/by-token/:token`: what a pending invitation link offers, and nothing else. */
export interface InvitationPreviewJson {
  email: string;
  role: Role | null;
  expires_at: string;
}

export interface InvitationJson {
  id: string;
  email: string;
  role: Role | null;
  status: InvitationStatus;
  invited_by_email: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  /** Only in the answer to POST: the link is shown once. */
  url?: string;
}

/** `POST /api/invitations`. */
export interface CreateInvitationRequest {
  email: string;
  role: Role | null;
}

/** `POST /api/invitations/accept`. */
export interface AcceptInvitationRequest {
  token: string;
  password: string;
  first_name?: string;
  last_name?: string;
}

// ---- admin overview ----

/** `GET /api/stats`. */
export interface StatsJson {
  total_users: number;
  active_pcps: number;
  pending_approvals: number;
}

export const ACTIVITY_TYPES = [
  'signup',
  'access_requested',
  'approval_approved',
  'approval_rejected',
  'rule_set_published',
  'invitation_accepted',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** `GET /api/activity` (one row). */
export interface ActivityItemJson {
  id: string;
  type: ActivityType;
  at: string;
  actor_email: string | null;
  subject_email: string | null;
  summary: string;
}

// ---- operations ----

/** `GET /api/health`. */
export interface HealthJson {
  status: 'ok' | 'degraded';
  database: 'up' | 'down';
  queue: 'up' | 'down';
  mode?: { database: string; queue: string };
  version?: string;
}

/** `GET /api/polish/status`. */
/** `POST /api/parameters/:id/polish` (202): the job that will polish the parameter's question. */
export interface PolishEnqueueJson {
  job_id: string;
  parameter_id: string;
  /** 'already_queued' when the same input was still waiting or running. */
  status: 'queued' | 'already_queued';
}

export interface PolishStatusJson {
  driver: 'bullmq' | 'in-process';
  provider: 'built-in' | 'llm';
  counts: { waiting: number; active: number; completed: number; failed: number; delayed: number };
}
