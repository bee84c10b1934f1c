import { DomainError } from '../../common/errors';

/**
 * Fixed-window counter kept in this process. Sign-in and sign-up consult it per IP
 * and per e-mail so password guessing is slow from one address and against one account.
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly windowMs: number, private readonly now: () => number = Date.now) {}

  /** Counts one attempt for `key`; throws `rate_limited` past `limit` in the window. */
  consume(key: string, limit: number): void {
    const now = this.now();
    let entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + this.windowMs };
      this.hits.set(key, entry);
      if (this.hits.size > 50_000) this.sweep(now);
    }
    entry.count += 1;
    if (entry.count > limit) {
      const retryAfter = Math.ceil((entry.resetAt - now) / 1000);
      throw new DomainError('rate_limited', 'Too many attempts. Please wait and try again.', { retry_after_seconds: retryAfter });
    }
  }

  private sweep(now: number) {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}
