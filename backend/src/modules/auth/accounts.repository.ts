import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Profile, User, UserRole } from '../users';

/** Sign-up, sign-in and password changes: the queries on the users aggregate that only auth needs. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  emailTaken(m: EntityManager, email: string): Promise<boolean> {
    return m.exists(User, { where: { email } });
  }

  createUser(
    m: EntityManager,
    row: { email: string; password_hash: string | null; email_confirmed_at: Date | null; google_sub?: string },
  ): Promise<User> {
    return m.save(User, m.create(User, row));
  }

  async insertProfile(m: EntityManager, row: { id: string; first_name: string | null; last_name: string | null }): Promise<void> {
    await m.insert(Profile, row);
  }

  /**
   * Whether the instance has an administrator, after taking the first-account lock: it serialises
   * concurrent first sign-ups (until the transaction ends) so exactly one becomes super_admin.
   */
  async hasAdministratorLocked(m: EntityManager): Promise<boolean> {
    await m.query('SELECT pg_advisory_xact_lock(7261001)');
    return m.createQueryBuilder(UserRole, 'r').where(`r.role IN ('admin', 'super_admin')`).getExists();
  }

  /** The user with the password hash, which ordinary reads never select. */
  withPasswordHash(where: { email: string } | { id: string }): Promise<User | null> {
    const [column, value] = 'email' in where ? ['email', where.email] : ['id', where.id];
    return this.db
      .getRepository(User)
      .createQueryBuilder('u')
      .addSelect('u.password_hash')
      .where(`u.${column} = :value`, { value })
      .getOne();
  }

  findBy(m: EntityManager, where: { email: string } | { google_sub: string }): Promise<User | null> {
    return m.findOne(User, { where });
  }

  async update(m: EntityManager, id: string, change: Partial<Pick<User, 'password_hash' | 'google_sub' | 'email_confirmed_at'>>) {
    await m.update(User, { id }, change);
  }
}
