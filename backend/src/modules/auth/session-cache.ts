import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import IORedis from 'ioredis';
import type { DataSource, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import type { EntityMetadata } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { AccountFacts, AuthUser } from '../../common/auth-user';

/**
 * What the per-request check reads: the session is open, the user's e-mail and current role, and the rest of
 * what `GET /api/auth/user` shows (so the signed-in user's own identity needs no statement of its own).
 */
export type SessionIdentity = Pick<AuthUser, 'id' | 'email' | 'role'> & { account: AccountFacts };

/** Writes to these tables can end a session, change a role or change what the identity shows (the names). */
const AUTH_TABLES = new Set(['auth_sessions', 'users', 'user_roles', 'profiles']);
/** Bounds staleness from writes made outside the API that no process announces (a DBA's; the CLI announces its own). */
export const SESSION_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 20_000;
/** How long a write waits for every API process to confirm it dropped its cache. */
const ACK_TIMEOUT_MS = 2_000;

interface Entry {
  value: SessionIdentity;
  userId: string;
  expires: number;
}

/** The Redis channels on which a session change is announced and its drop confirmed, per deployment (queue prefix). */
export function sessionChannels(prefix: string) {
  return { drop: `${prefix}:auth-sessions:drop`, dropped: `${prefix}:auth-sessions:dropped` };
}

/**
 * For a process outside the API that wrote an auth table (the CLI's role command): drops every API process's cached
 * sessions and waits until each has confirmed, as a write through the API does, so the change applies at the next
 * request rather than at the cache's expiry. Resolves with how many processes confirmed and how many there were.
 */
export async function announceSessionChange(redisUrl: string, prefix: string): Promise<{ confirmed: number; processes: number }> {
  const { drop, dropped } = sessionChannels(prefix);
  const options = { maxRetriesPerRequest: 1, connectTimeout: 3000 };
  const sub = new IORedis(redisUrl, options);
  const pub = new IORedis(redisUrl, options);
  const id = randomUUID();
  let confirmed = 0;
  let processes = Number.POSITIVE_INFINITY;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  sub.on('message', (_channel: string, message: string) => {
    if (message === id && ++confirmed >= processes) done();
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await sub.subscribe(dropped);
    processes = await pub.publish(drop, id);
    if (confirmed >= processes) done();
    await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_TIMEOUT_MS)))]);
    return { confirmed, processes };
  } finally {
    clearTimeout(timer);
    for (const connection of [sub, pub]) await connection.quit().catch(() => connection.disconnect());
  }
}

interface PendingAck {
  needed: number;
  got: number;
  done: () => void;
}

/**
 * Caches the per-request session and role lookup, so an authenticated request needs no database
 * round trip of its own. Correctness rests on invalidation before the write's response:
 * - every insert, update or delete of a session, user or role through TypeORM (sign-out, password
 *   change, role change, deletion, sign-in) drops the whole cache once the change is committed;
 * - with REDIS_URL, the writing process then publishes the drop on Redis and waits until every
 *   subscribed API process has confirmed it, so the next request anywhere reads the database;
 *   a process whose subscription is down does not use its cache until it is back;
 * - a lookup that raced with a drop is not stored (generation check).
 */
@Injectable()
export class SessionCache implements EntitySubscriberInterface, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SessionCache');
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  /** Without Redis there is one API process: its own drops are all there is. */
  private subscribed: boolean;
  private readonly sub?: IORedis;
  private readonly pub?: IORedis;
  private readonly channel: string;
  private readonly ackChannel: string;
  private readonly pending = new Map<string, PendingAck>();
  /** Transactions that wrote an auth table: the drop is announced once they commit. */
  private readonly dirty = new WeakSet<QueryRunner>();

  constructor(@Inject(APP_CONFIG) config: AppConfig, @InjectDataSource() db: DataSource) {
    db.subscribers.push(this);
    const channels = sessionChannels(config.queue.prefix);
    this.channel = channels.drop;
    this.ackChannel = channels.dropped;
    this.subscribed = !config.redisUrl;
    if (config.redisUrl) {
      const options = { maxRetriesPerRequest: 1, connectTimeout: 3000 };
      this.sub = new IORedis(config.redisUrl, { ...options, lazyConnect: true });
      this.pub = new IORedis(config.redisUrl, { ...options, enableOfflineQueue: false, lazyConnect: true });
      this.sub.on('message', (channel: string, message: string) => this.onMessage(channel, message));
      const down = () => {
        this.subscribed = false;
        this.clear();
      };
      this.sub.on('close', down);
      this.sub.on('reconnecting', down);
      this.sub.on('error', (err: Error) => this.logger.warn(`Redis unavailable, sessions are read from the database: ${err.message}`));
      this.pub.on('error', () => undefined);
      this.sub.on('ready', () => void this.resubscribe());
    }
  }

  async onModuleInit() {
    await Promise.all([this.sub?.connect(), this.pub?.connect()].map((p) => p?.catch(() => undefined)));
  }

  async onModuleDestroy() {
    this.subscribed = false;
    for (const connection of [this.sub, this.pub]) await connection?.quit().catch(() => connection.disconnect());
  }

  /** The cached identity for this session of this user, if the cache may be used. */
  get(sessionId: string, userId: string): SessionIdentity | undefined {
    if (!this.subscribed) return undefined;
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.userId !== userId || entry.expires <= Date.now()) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry.value;
  }

  /** Take before reading the database; store() refuses a read that a drop overtook. */
  stamp(): number {
    return this.generation;
  }

  store(stamp: number, sessionId: string, userId: string, value: SessionIdentity): void {
    if (!this.subscribed || stamp !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(sessionId, { value, userId, expires: Date.now() + SESSION_CACHE_TTL_MS });
  }

  /** Drops the cache here and, with Redis, on every API process before resolving. */
  async dropEverywhere(): Promise<void> {
    this.clear();
    if (!this.pub) return;
    const id = randomUUID();
    let done!: () => void;
    const confirmed = new Promise<void>((resolve) => (done = resolve));
    const pending: PendingAck = { needed: Number.POSITIVE_INFINITY, got: 0, done };
    this.pending.set(id, pending);
    let timer: NodeJS.Timeout | undefined;
    try {
      pending.needed = await this.pub.publish(this.channel, id);
      if (pending.got >= pending.needed) done();
      const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ACK_TIMEOUT_MS)));
      if (await Promise.race([confirmed.then(() => false), timedOut]))
        this.logger.warn(`Only ${pending.got} of ${pending.needed} API processes confirmed a session change in time`);
    } catch (err) {
      // Redis is down: every process's subscription is down with it, so none uses its cache.
      this.logger.warn(`Could not announce a session change: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
      this.pending.delete(id);
    }
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }

  private async resubscribe(): Promise<void> {
    try {
      await this.sub!.subscribe(this.channel, this.ackChannel);
      // Drops announced while the subscription was down were missed: start empty.
      this.clear();
      this.subscribed = true;
    } catch {
      this.subscribed = false;
    }
  }

  private onMessage(channel: string, id: string): void {
    if (channel === this.channel) {
      this.clear();
      this.pub!.publish(this.ackChannel, id).catch(() => undefined);
    } else if (channel === this.ackChannel) {
      const pending = this.pending.get(id);
      if (pending && ++pending.got >= pending.needed) pending.done();
    }
  }

  // TypeORM subscriber: every write to an auth table, wherever it comes from in the API.

  private async written(metadata: EntityMetadata | undefined, queryRunner: QueryRunner): Promise<void> {
    if (!metadata || !AUTH_TABLES.has(metadata.tableName)) return;
    this.clear();
    if (queryRunner.isTransactionActive) this.dirty.add(queryRunner);
    else await this.dropEverywhere();
  }

  afterInsert(event: { metadata: EntityMetadata; queryRunner: QueryRunner }) {
    // A new session (sign-in, refresh) makes no cached one wrong: not worth a drop.
    if (event.metadata?.tableName === 'auth_sessions') return;
    return this.written(event.metadata, event.queryRunner);
  }
  afterUpdate(event: { metadata: EntityMetadata; queryRunner: QueryRunner }) {
    return this.written(event.metadata, event.queryRunner);
  }
  afterRemove(event: { metadata: EntityMetadata; queryRunner: QueryRunner }) {
    return this.written(event.metadata, event.queryRunner);
  }
  afterSoftRemove(event: { metadata: EntityMetadata; queryRunner: QueryRunner }) {
    return this.written(event.metadata, event.queryRunner);
  }
  async afterTransactionCommit(event: TransactionCommitEvent) {
    // A released savepoint is not the commit: wait for the outermost transaction.
    if (!this.dirty.has(event.queryRunner) || event.queryRunner.isTransactionActive) return;
    this.dirty.delete(event.queryRunner);
    await this.dropEverywhere();
  }
  afterTransactionRollback(event: TransactionRollbackEvent) {
    if (!event.queryRunner.isTransactionActive) this.dirty.delete(event.queryRunner);
  }
}
