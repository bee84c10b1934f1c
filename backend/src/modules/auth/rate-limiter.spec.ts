import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { DomainError } from '../../common/errors';
import { RateLimiter } from './rate-limiter';

async function refusal(p: Promise<void>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('RateLimiter in this process (embedded mode)', () => {
  it('allows up to the limit in a window, then refuses with retry_after', async () => {
    const limiter = new RateLimiter({ windowMs: 60_000 });
    for (let i = 0; i < 3; i++) await limiter.consume('ip:1', 3);
    const e = await refusal(limiter.consume('ip:1', 3));
    expect(e).toBeInstanceOf(DomainError);
    expect(e.code).toBe('rate_limited');
    expect(e.details).toEqual({ retry_after_seconds: 60 });
  });

  it('opens again when the window ends', async () => {
    const limiter = new RateLimiter({ windowMs: 1000 });
    await limiter.consume('ip:1', 1);
    await expect(limiter.consume('ip:1', 1)).rejects.toBeInstanceOf(DomainError);
    await new Promise((r) => setTimeout(r, 1100));
    await expect(limiter.consume('ip:1', 1)).resolves.toBeUndefined();
  });

  it('counts keys independently', async () => {
    const limiter = new RateLimiter({ windowMs: 1000 });
    await limiter.consume('a', 1);
    await expect(limiter.consume('b', 1)).resolves.toBeUndefined();
    await expect(limiter.consume('a', 1)).rejects.toBeInstanceOf(DomainError);
  });

  it('keeps limiting in this process while Redis is unreachable', async () => {
    const down = new IORedis('redis://127.0.0.1:1', { enableOfflineQueue: false, lazyConnect: true, retryStrategy: () => null });
    down.on('error', () => undefined);
    const limiter = new RateLimiter({ windowMs: 60_000, redis: down, keyPrefix: 'cds-test-down' });
    await limiter.consume('ip:9', 2);
    await limiter.consume('ip:9', 2);
    expect((await refusal(limiter.consume('ip:9', 2))).code).toBe('rate_limited');
    down.disconnect();
  });
});

const redisUrl = process.env.REDIS_URL;
(redisUrl ? describe : describe.skip)('RateLimiter on Redis (several API processes)', () => {
  const connections: IORedis[] = [];
  const connect = () => {
    const c = new IORedis(redisUrl!, { enableOfflineQueue: false });
    connections.push(c);
    return c;
  };
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.quit()));
  });

  it('shares one count between limiters on separate connections, as two processes would', async () => {
    const keyPrefix = `cds-test-${randomBytes(4).toString('hex')}`;
    const a = connect();
    const b = connect();
    await Promise.all([a, b].map((c) => new Promise((r) => (c.status === 'ready' ? r(null) : c.once('ready', r)))));
    const one = new RateLimiter({ windowMs: 60_000, redis: a, keyPrefix });
    const two = new RateLimiter({ windowMs: 60_000, redis: b, keyPrefix });
    await one.consume('email:x@example.org', 3);
    await two.consume('email:x@example.org', 3);
    await one.consume('email:x@example.org', 3);
    const e = await refusal(two.consume('email:x@example.org', 3));
    expect(e.code).toBe('rate_limited');
    expect((e.details as { retry_after_seconds: number }).retry_after_seconds).toBeGreaterThan(55);
    // Another deployment (prefix) on the same Redis keeps its own count.
    const other = new RateLimiter({ windowMs: 60_000, redis: a, keyPrefix: `${keyPrefix}-other` });
    await expect(other.consume('email:x@example.org', 3)).resolves.toBeUndefined();
  });
});
