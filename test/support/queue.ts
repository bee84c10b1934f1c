import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';

/** A Redis key prefix of its own per test run, so runs (and parallel CI jobs) never collide. */
export function uniqueQueuePrefix(): string {
  return `cds-test-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Deletes every key under the prefix (no-op without Redis). */
export async function dropQueuePrefix(prefix: string, url = process.env.REDIS_URL): Promise<void> {
  if (!url) return;
  const redis = new IORedis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
