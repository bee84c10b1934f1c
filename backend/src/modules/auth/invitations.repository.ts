import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { InvitationJson, InvitationStatus, Role } from '@cds/contracts';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import type { Stored } from '../../common/stored';
import { User, userLabels } from '../users';
import { Invitation } from './invitation.entity';

/** An invitation as the list and detail read it: the contract's shape with its timestamps as dates. */
export type InvitationRow = Stored<Omit<InvitationJson, 'url'>, 'created_at' | 'expires_at' | 'accepted_at'>;

/** The invitation's own columns: who invited, before the users module names them. */
type StoredInvitation = Omit<InvitationRow, 'invited_by_email'> & { invited_by: string | null };

export interface InvitationListFilter {
  status?: InvitationStatus;
  sort: 'email' | 'expires_at' | 'created_at';
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const STATUS_SQL = `CASE WHEN i.accepted_at IS NOT NULL THEN 'accepted' WHEN i.revoked_at IS NOT NULL THEN 'revoked'
  WHEN i.expires_at <= now() THEN 'expired' ELSE 'pending' END`;

/** Invitations: every query on them. */
@Injectable()
export class InvitationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base() {
    return this.db
      .createQueryBuilder()
      .from(Invitation, 'i')
      .select([
        'i.id AS id',
        'i.email AS email',
        'i.role AS role',
        `${STATUS_SQL} AS status`,
        'i.invited_by AS invited_by',
        'i.created_at AS created_at',
        'i.expires_at AS expires_at',
        'i.accepted_at AS accepted_at',
      ]);
  }

  /** The inviters' e-mails, named for the whole page at once. */
  private async withInviters(rows: StoredInvitation[]): Promise<InvitationRow[]> {
    const inviters = await userLabels(
      this.db.manager,
      rows.map((r) => r.invited_by),
    );
    return rows.map(({ invited_by, ...r }) => ({ ...r, invited_by_email: (invited_by && inviters.get(invited_by)?.email) || null }));
  }

  async findRow(id: string): Promise<InvitationRow | null> {
    const row = await this.base().where('i.id = :id', { id }).getRawOne<StoredInvitation>();
    return row ? (await this.withInviters([row]))[0] : null;
  }

  async list(f: InvitationListFilter): Promise<{ rows: InvitationRow[]; total: number }> {
    const qb = this.base();
    if (f.status) qb.andWhere(`${STATUS_SQL} = :status`, { status: f.status });
    const total = await qb.clone().getCount();
    const rows = await qb.orderBy(`i.${f.sort}`, f.order).addOrderBy('i.id').offset(f.offset).limit(f.limit).getRawMany<StoredInvitation>();
    return { rows: await this.withInviters(rows), total };
  }

  userExists(m: EntityManager, email: string): Promise<boolean> {
    return m.exists(User, { where: { email } });
  }

  /** Marks the address's expired, still open invitations revoked, so they no longer block a new one. */
  async revokeExpired(m: EntityManager, email: string): Promise<void> {
    await m
      .createQueryBuilder()
      .update(Invitation)
      .set({ revoked_at: () => 'now()' })
      .where('email = :email AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at <= now()', { email })
      .execute();
  }

  countOpen(m: EntityManager, email: string): Promise<number> {
    return m.count(Invitation, { where: { email, accepted_at: IsNull(), revoked_at: IsNull() } });
  }

  async insert(
    m: EntityManager,
    row: { email: string; role: Role | null; token_hash: string; invited_by: string; expires_at: Date },
  ): Promise<string> {
    return (await m.save(Invitation, m.create(Invitation, row))).id;
  }

  /** The invitation, optionally locked until the transaction ends. */
  findById(m: EntityManager, id: string, lock: boolean): Promise<Invitation | null> {
    return m.findOne(Invitation, { where: { id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  findByTokenHash(m: EntityManager, tokenHash: string, lock: boolean): Promise<Invitation | null> {
    return m.findOne(Invitation, { where: { token_hash: tokenHash }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  async update(m: EntityManager, id: string, change: Partial<Pick<Invitation, 'revoked_at' | 'accepted_at' | 'accepted_user_id'>>) {
    await m.update(Invitation, { id }, change);
  }
}
