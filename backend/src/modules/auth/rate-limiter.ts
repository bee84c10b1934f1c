import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import IORedis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DomainError } from '../../common/errors';

export interface RateLimiterOptions {
  windowMs: number;
  /** Set: counts live in Redis and are shared by every API process. Unset: this process only (embedded mode). */
  redis?: IORedis;
  /** Namespaces the Redis keys (the deployment's queue prefix). */
  keyPrefix?: string;
}

/**
 * Fixed-window attempt counter (rate-limiter-flexible). Sign-in and sign-up consult it per IP
 * and per e-mail so password guessing is slow from one address and against one account,
 * whichever API process a request lands on.
 */
export class RateLimiter {
  /** One limiter per limit value (the library fixes `points` per instance); a handful at most. */
  private readonly byLimit = new Map<number, RateLimiterAbstract>();

  constructor(private readonly opts: RateLimiterOptions) {}

  /** Counts one attempt for `key`; throws `rate_limited` past `limit` in the window. */
  async consume(key: string, limit: number): Promise<void> {
    try {
      await this.limiter(limit).consume(key);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      const retryAfter = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
      throw new DomainError('rate_limited', 'Too many attempts. Please wait and try again.', { retry_after_seconds: retryAfter });
    }
  }

  private limiter(limit: number): RateLimiterAbstract {
    let limiter = this.byLimit.get(limit);
    if (limiter) return limiter;
    const base = {
      points: limit,
      duration: Math.ceil(this.opts.windowMs / 1000),
      keyPrefix: `${this.opts.keyPrefix ?? 'cds'}:auth-rl:${limit}`,
    };
    limiter = this.opts.redis
      ? new RateLimiterRedis({
          ...base,
          storeClient: this.opts.redis,
          // A Redis outage must not lock every user out, nor lift the limit: count in this process meanwhile.
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory(base),
        })
      : new RateLimiterMemory(base);
    this.byLimit.set(limit, limiter);
    return limiter;
  }
}

/** The process's limiter for authentication attempts, on Redis when REDIS_URL is set. */
@Injectable()
export class AuthRateLimiter extends RateLimiter implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimiter');
  private readonly connection?: IORedis;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const redis = config.redisUrl
      ? new IORedis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 3000 })
      : undefined;
    super({ windowMs: config.rateLimit.windowMs, redis, keyPrefix: config.queue.prefix });
    this.connection = redis;
    let warned = false;
    redis?.on('error', (err: Error) => {
      if (warned) return;
      warned = true;
      this.logger.warn(`Redis unavailable for rate limits, counting in this process meanwhile: ${err.message}`);
    });
    redis?.on('ready', () => (warned = false));
  }

  async onModuleDestroy() {
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}
