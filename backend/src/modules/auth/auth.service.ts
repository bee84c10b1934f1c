import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { IssuedTokens, SessionJson, UserJson } from '@cds/contracts';
import { isUniqueViolation } from '../../common/api-helpers';
import { DomainError } from '../../common/errors';
import { applyRole, UsersService } from '../users';
import type { AuthUser } from '../../common/auth-user';
import { passwordWeaknesses } from './password-policy';
import { AuthRateLimiter } from './rate-limiter';
import { type LogoutScope, TokensService } from './tokens.service';
import { AccountsRepository } from './accounts.repository';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';

const MISSING_CREDENTIALS = 'You must provide either an email or phone number and a password';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

const invalidCredentials = () => new DomainError('invalid_credentials', 'Invalid login credentials');

export interface GoogleProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
}

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');
  /** Verified against when the e-mail is unknown, so both failures take the same time. */
  private readonly dummyHash: Promise<string>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsRepository,
    private readonly invitationRows: InvitationsRepository,
    private readonly tokens: TokensService,
    private readonly users: UsersService,
    private readonly invitations: InvitationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly limiter: AuthRateLimiter,
  ) {
    this.dummyHash = hash('dummy-password-for-timing', ARGON2);
  }

  private async throttle(ip: string, email: string | undefined) {
    await this.limiter.consume(`ip:${ip}`, this.config.rateLimit.perIp);
    if (email) await this.limiter.consume(`email:${email}`, this.config.rateLimit.perEmail);
  }

  async signUp(input: { email?: string; password?: string; first_name?: string; last_name?: string }, ip: string): Promise<SessionJson> {
    const { email, password } = credentials(input);
    await this.throttle(ip, email);
    if (!EMAIL.test(email)) {
      throw new DomainError('validation_failed', 'Unable to validate email address: invalid format', [
        { field: 'email', message: 'Invalid email address' },
      ]);
    }
    const reasons = passwordWeaknesses(password, email);
    if (reasons.length) throw new DomainError('weak_password', 'Password is too weak', reasons);
    const passwordHash = await hash(password, ARGON2);
    const session = await this.db
      .transaction(async (m) => {
        if (await this.accounts.emailTaken(m, email)) throw new DomainError('email_taken', 'User already registered');
        const user = await this.accounts.createUser(m, { email, password_hash: passwordHash, email_confirmed_at: null });
        await this.afterAccountCreated(m, user.id, input.first_name, input.last_name);
        return this.tokens.openSession(user.id, m);
      })
      .catch(uniqueViolationAs(new DomainError('email_taken', 'User already registered')));
    return this.withUser(session);
  }

  /** Profile from the sign-up names; the first account of an instance without administrators owns it. */
  private async afterAccountCreated(m: EntityManager, userId: string, firstName?: string, lastName?: string) {
    await this.accounts.insertProfile(m, { id: userId, first_name: blankToNull(firstName), last_name: blankToNull(lastName) });
    // Serialises concurrent first sign-ups so exactly one becomes super_admin.
    if (!(await this.accounts.hasAdministratorLocked(m))) {
      await applyRole(m, userId, 'super_admin', null);
      this.logger.log('First account on this instance became super_admin');
    }
  }

  /**
   * Accepting an invitation creates the account with the invited role. The link proved the
   * address, so it counts as confirmed; the invitation is locked so it works exactly once.
   */
  async acceptInvitation(
    input: { token: string; password: string; first_name?: string; last_name?: string },
    ip: string,
  ): Promise<SessionJson> {
    await this.limiter.consume(`ip:${ip}`, this.config.rateLimit.perIp);
    const preview = await this.invitations.byToken(this.db.manager, input.token, false);
    const reasons = passwordWeaknesses(input.password, preview.email);
    if (reasons.length) throw new DomainError('weak_password', 'Password is too weak', reasons);
    const passwordHash = await hash(input.password, ARGON2);
    const session = await this.db
      .transaction(async (m) => {
        const inv = await this.invitations.byToken(m, input.token, true);
        if (await this.accounts.emailTaken(m, inv.email)) throw new DomainError('email_taken', 'User already registered');
        const user = await this.accounts.createUser(m, { email: inv.email, password_hash: passwordHash, email_confirmed_at: new Date() });
        await this.accounts.insertProfile(m, {
          id: user.id,
          first_name: blankToNull(input.first_name),
          last_name: blankToNull(input.last_name),
        });
        await applyRole(m, user.id, inv.role, inv.invited_by);
        await this.invitationRows.update(m, inv.id, { accepted_at: new Date(), accepted_user_id: user.id });
        return this.tokens.openSession(user.id, m);
      })
      .catch(uniqueViolationAs(new DomainError('email_taken', 'User already registered')));
    return this.withUser(session);
  }

  async signIn(input: { email?: string; password?: string }, ip: string): Promise<SessionJson> {
    const { email, password } = credentials(input);
    await this.throttle(ip, email);
    const user = await this.accounts.withPasswordHash({ email });
    const ok = await verify(user?.password_hash ?? (await this.dummyHash), password).catch(() => false);
    if (!user || !user.password_hash || !ok) throw invalidCredentials();
    return this.withUser(await this.tokens.openSession(user.id));
  }

  async refresh(refreshToken: string | undefined): Promise<SessionJson> {
    if (!refreshToken) {
      throw new DomainError('validation_failed', 'refresh_token is required', [
        { field: 'refresh_token', message: 'refresh_token is required' },
      ]);
    }
    const { tokens } = await this.tokens.rotate(refreshToken);
    return this.withUser(tokens);
  }

  logout(user: AuthUser, scope: LogoutScope) {
    return this.tokens.revoke(user.id, user.sessionId, scope);
  }

  /** Changing the password ends every other session: a stolen session does not outlive it. */
  async changePassword(user: AuthUser, currentPassword: string, password: string): Promise<UserJson> {
    await this.throttle(`user:${user.id}`, user.email);
    const row = await this.accounts.withPasswordHash({ id: user.id });
    const ok = row?.password_hash ? await verify(row.password_hash, currentPassword).catch(() => false) : false;
    if (!ok) throw new DomainError('invalid_credentials', 'Current password is incorrect');
    const reasons = passwordWeaknesses(password, user.email);
    if (reasons.length) throw new DomainError('weak_password', 'Password is too weak', reasons);
    const passwordHash = await hash(password, ARGON2);
    await this.db.transaction(async (m) => {
      await this.accounts.update(m, user.id, { password_hash: passwordHash });
      await this.tokens.revokeAllExcept(m, user.id, [user.sessionId]);
    });
    return this.users.getUserJson(user.id);
  }

  /** Finds the account by Google subject, then by verified e-mail; creates one otherwise. */
  async signInWithGoogle(profile: GoogleProfile): Promise<SessionJson> {
    const email = profile.email.trim().toLowerCase();
    const session = await this.db.transaction(async (m) => {
      let user = await this.accounts.findBy(m, { google_sub: profile.sub });
      if (!user) {
        const byEmail = await this.accounts.findBy(m, { email });
        if (byEmail) {
          // Linking to an existing password account is only safe when Google vouches for the address.
          if (!profile.emailVerified) throw new DomainError('conflict', 'An account with this email already exists');
          await this.accounts.update(m, byEmail.id, {
            google_sub: profile.sub,
            email_confirmed_at: byEmail.email_confirmed_at ?? new Date(),
          });
          user = byEmail;
        } else {
          user = await this.accounts.createUser(m, {
            email,
            google_sub: profile.sub,
            password_hash: null,
            email_confirmed_at: profile.emailVerified ? new Date() : null,
          });
          await this.afterAccountCreated(m, user.id, profile.firstName, profile.lastName);
        }
      }
      return this.tokens.openSession(user.id, m);
    });
    return this.withUser(session);
  }

  private async withUser(tokens: IssuedTokens): Promise<SessionJson> {
    const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString()) as { sub: string };
    return { ...tokens, user: await this.users.getUserJson(payload.sub) };
  }
}

function credentials(input: { email?: string; password?: string }) {
  const email = input.email?.trim().toLowerCase();
  if (!email || !input.password) {
    throw new DomainError('validation_failed', MISSING_CREDENTIALS, [
      ...(!email ? [{ field: 'email', message: 'Email is required' }] : []),
      ...(!input.password ? [{ field: 'password', message: 'Password is required' }] : []),
    ]);
  }
  return { email, password: input.password };
}

function blankToNull(s?: string): string | null {
  const t = s?.trim();
  return t ? t : null;
}

/** Two sign-ups racing for one e-mail: the loser sees the same answer as a sequential one. */
function uniqueViolationAs(error: DomainError) {
  return (e: unknown): never => {
    if (isUniqueViolation(e)) throw error;
    throw e;
  };
}
