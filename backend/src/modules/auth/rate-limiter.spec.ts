import { DomainError } from '../../common/errors';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows up to the limit in a window, then refuses with retry_after', () => {
    let now = 0;
    const limiter = new RateLimiter(60_000, () => now);
    for (let i = 0; i < 3; i++) limiter.consume('ip:1', 3);
    try {
      limiter.consume('ip:1', 3);
      throw new Error('expected a refusal');
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('rate_limited');
      expect((e as DomainError).details).toEqual({ retry_after_seconds: 60 });
    }
    now = 60_000;
    expect(() => limiter.consume('ip:1', 3)).not.toThrow();
  });
  it('counts keys independently', () => {
    const limiter = new RateLimiter(1000, () => 0);
    limiter.consume('a', 1);
    expect(() => limiter.consume('b', 1)).not.toThrow();
    expect(() => limiter.consume('a', 1)).toThrow();
  });
});
