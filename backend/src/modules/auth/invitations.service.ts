import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { conflict, notFound } from '../../common/errors';
import { ListQuery, Page } from '../../common/pagination';
import { User, type Role } from '../users/user.entity';
import { assertMayChangeRole, iso } from '../users/users.service';
import type { AuthUser } from './auth-user';
import { Invitation } from './invitation.entity';

export const INVITATION_TTL_DAYS = 7;
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationJson {
  id: string;
  email: string;
  role: Role | null;
  status: InvitationStatus;
  invited_by_email: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  url?: string;
}

const STATUS_SQL = `CASE WHEN i.accepted_at IS NOT NULL THEN 'accepted' WHEN i.revoked_at IS NOT NULL THEN 'revoked'
  WHEN i.expires_at <= now() THEN 'expired' ELSE 'pending' END`;

export function statusOf(i: Pick<Invitation, 'accepted_at' | 'revoked_at' | 'expires_at'>): InvitationStatus {
  if (i.accepted_at) return 'accepted';
  if (i.revoked_at) return 'revoked';
  return i.expires_at.getTime() <= Date.now() ? 'expired' : 'pending';
}

@Injectable()
export class InvitationsService {
  constructor(@InjectDataSource() private readonly db: DataSource, @Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private base() {
    return this.db.createQueryBuilder().from('invitations', 'i').leftJoin('users', 'u', 'u.id = i.invited_by')
      .select(['i.id AS id', 'i.email AS email', 'i.role AS role', `${STATUS_SQL} AS status`, 'u.email AS invited_by_email',
        'i.created_at AS created_at', 'i.expires_at AS expires_at', 'i.accepted_at AS accepted_at']);
  }

  private async get(id: string): Promise<InvitationJson> {
    const row = await this.base().where('i.id = :id', { id }).getRawOne();
    if (!row) throw notFound('Invitation');
    return toJson(row);
  }

  /** The link is returned once; only its hash is stored. */
  async create(actor: AuthUser, email: string, role: Role | null): Promise<InvitationJson> {
    assertMayChangeRole(actor.role, null, role);
    const token = randomBytes(32).toString('base64url');
    const id = await this.db.transaction(async (m) => {
      if (await m.exists(User, { where: { email } })) throw conflict('A user with this email already exists');
      // An expired invitation no longer blocks a new one.
      await m.query(`UPDATE invitations SET revoked_at = now() WHERE email = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at <= now()`, [email]);
      const open = await m.count(Invitation, { where: { email, accepted_at: IsNull(), revoked_at: IsNull() } });
      if (open) throw conflict('This email already has a pending invitation');
      const saved = await m.save(Invitation, m.create(Invitation, {
        email, role, token_hash: hashToken(token), invited_by: actor.id,
        expires_at: new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600 * 1000),
      }));
      return saved.id;
    }).catch((e: unknown) => {
      if ((e as { driverError?: { code?: string } }).driverError?.code === '23505') throw conflict('This email already has a pending invitation');
      throw e;
    });
    return { ...(await this.get(id)), url: `${this.config.publicUrl}/invite/${token}` };
  }

  async list(q: ListQuery): Promise<Page<InvitationJson>> {
    const qb = this.base();
    if (typeof q.filter.status === 'string') qb.andWhere(`${STATUS_SQL} = :status`, { status: q.filter.status });
    const total = await qb.clone().getCount();
    const col = q.sort.field === 'email' ? 'i.email' : q.sort.field === 'expires_at' ? 'i.expires_at' : 'i.created_at';
    const rows = await qb.orderBy(col, q.sort.order).addOrderBy('i.id').offset(q.offset).limit(q.limit).getRawMany();
    return new Page('invitations', rows.map(toJson), total, q.offset);
  }

  async revoke(actor: AuthUser, id: string): Promise<InvitationJson> {
    await this.db.transaction(async (m) => {
      const inv = await m.findOne(Invitation, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!inv) throw notFound('Invitation');
      assertMayChangeRole(actor.role, null, inv.role);
      if (statusOf(inv) !== 'pending') throw conflict(`This invitation is already ${statusOf(inv)}`);
      await m.update(Invitation, { id }, { revoked_at: new Date() });
    });
    return this.get(id);
  }

  /** For the public invite page: what the link offers, without revealing anything else. */
  async preview(token: string) {
    const inv = await this.byToken(this.db.manager, token, false);
    return { email: inv.email, role: inv.role, expires_at: iso(inv.expires_at) };
  }

  async byToken(m: EntityManager, token: string, lock: boolean): Promise<Invitation> {
    const inv = await m.findOne(Invitation, { where: { token_hash: hashToken(token) }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    if (!inv) throw notFound('Invitation');
    const status = statusOf(inv);
    if (status !== 'pending') throw conflict(`This invitation has ${status === 'expired' ? 'expired' : status === 'accepted' ? 'already been used' : 'been revoked'}`);
    return inv;
  }
}

function toJson(r: Record<string, unknown>): InvitationJson {
  return {
    id: r.id as string,
    email: r.email as string,
    role: (r.role as Role) ?? null,
    status: r.status as InvitationStatus,
    invited_by_email: (r.invited_by_email as string) ?? null,
    created_at: iso(r.created_at as Date)!,
    expires_at: iso(r.expires_at as Date)!,
    accepted_at: iso(r.accepted_at as Date),
  };
}
