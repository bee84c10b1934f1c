import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { InvitationJson, InvitationPreviewJson, InvitationStatus, Role } from '@cds/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { isUniqueViolation, iso } from '../../common/api-helpers';
import { conflict, notFound } from '../../common/errors';
import { ListQuery, Page } from '../../common/pagination';
import { assertMayChangeRole } from '../users';
import type { AuthUser } from '../../common/auth-user';
import { Invitation } from './invitation.entity';
import { InvitationsRepository, type InvitationRow } from './invitations.repository';

export const INVITATION_TTL_DAYS = 7;
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function statusOf(i: Pick<Invitation, 'accepted_at' | 'revoked_at' | 'expires_at'>): InvitationStatus {
  if (i.accepted_at) return 'accepted';
  if (i.revoked_at) return 'revoked';
  return i.expires_at.getTime() <= Date.now() ? 'expired' : 'pending';
}

@Injectable()
export class InvitationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: InvitationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private async get(id: string): Promise<InvitationJson> {
    const row = await this.repo.findRow(id);
    if (!row) throw notFound('Invitation');
    return toJson(row);
  }

  /** The link is returned once; only its hash is stored. */
  async create(actor: AuthUser, email: string, role: Role | null): Promise<InvitationJson> {
    assertMayChangeRole(actor.role, null, role);
    const token = randomBytes(32).toString('base64url');
    const id = await this.db
      .transaction(async (m) => {
        if (await this.repo.userExists(m, email)) throw conflict('A user with this email already exists');
        // An expired invitation no longer blocks a new one.
        await this.repo.revokeExpired(m, email);
        if (await this.repo.countOpen(m, email)) throw conflict('This email already has a pending invitation');
        return this.repo.insert(m, {
          email,
          role,
          token_hash: hashToken(token),
          invited_by: actor.id,
          expires_at: new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600 * 1000),
        });
      })
      .catch((e: unknown) => {
        if (isUniqueViolation(e)) throw conflict('This email already has a pending invitation');
        throw e;
      });
    return { ...(await this.get(id)), url: `${this.config.publicUrl}/invite/${token}` };
  }

  async list(q: ListQuery): Promise<Page<InvitationJson>> {
    const { rows, total } = await this.repo.list({
      status: typeof q.filter.status === 'string' ? (q.filter.status as InvitationStatus) : undefined,
      sort: q.sort.field === 'email' || q.sort.field === 'expires_at' ? q.sort.field : 'created_at',
      order: q.sort.order,
      offset: q.offset,
      limit: q.limit,
    });
    return new Page('invitations', rows.map(toJson), total, q.offset);
  }

  async revoke(actor: AuthUser, id: string): Promise<InvitationJson> {
    await this.db.transaction(async (m) => {
      const inv = await this.repo.findById(m, id, true);
      if (!inv) throw notFound('Invitation');
      assertMayChangeRole(actor.role, null, inv.role);
      if (statusOf(inv) !== 'pending') throw conflict(`This invitation is already ${statusOf(inv)}`);
      await this.repo.update(m, id, { revoked_at: new Date() });
    });
    return this.get(id);
  }

  /** For the public invite page: what the link offers, without revealing anything else. */
  async preview(token: string): Promise<InvitationPreviewJson> {
    const inv = await this.byToken(this.db.manager, token, false);
    return { email: inv.email, role: inv.role, expires_at: iso(inv.expires_at)! };
  }

  async byToken(m: EntityManager, token: string, lock: boolean): Promise<Invitation> {
    const inv = await this.repo.findByTokenHash(m, hashToken(token), lock);
    if (!inv) throw notFound('Invitation');
    const status = statusOf(inv);
    if (status !== 'pending')
      throw conflict(
        `This invitation has ${status === 'expired' ? 'expired' : status === 'accepted' ? 'already been used' : 'been revoked'}`,
      );
    return inv;
  }
}

function toJson(r: InvitationRow): InvitationJson {
  return { ...r, created_at: iso(r.created_at)!, expires_at: iso(r.expires_at)!, accepted_at: iso(r.accepted_at) };
}
