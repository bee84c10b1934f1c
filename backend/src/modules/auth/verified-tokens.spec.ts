import { VerifiedTokens } from './verified-tokens';

describe('VerifiedTokens', () => {
  const now = new Date('2026-11-27T09:00:00.500Z');
  const second = Math.floor(now.getTime() / 1000);
  beforeEach(() => jest.useFakeTimers({ now }));
  afterEach(() => jest.useRealTimers());

  it('answers for the exact token string until the second of its expiry, as jsonwebtoken counts it', () => {
    const tokens = new VerifiedTokens();
    const claims = { sub: 'u', sid: 's', exp: second + 2 };
    tokens.keep('a.b.c', claims);
    expect(tokens.get('a.b.c')).toBe(claims);
    expect(tokens.get('a.b.C')).toBeUndefined();
    jest.setSystemTime(new Date((second + 1) * 1000 + 999));
    expect(tokens.get('a.b.c')).toBe(claims);
    jest.setSystemTime(new Date((second + 2) * 1000));
    expect(tokens.get('a.b.c')).toBeUndefined();
  });

  it('keeps no token that never expires or is not yet valid: jsonwebtoken must judge those each time', () => {
    const tokens = new VerifiedTokens();
    tokens.keep('no.exp.x', { sub: 'u', sid: 's' });
    tokens.keep('nbf.x.y', { sub: 'u', sid: 's', exp: second + 60, nbf: second + 30 });
    expect(tokens.get('no.exp.x')).toBeUndefined();
    expect(tokens.get('nbf.x.y')).toBeUndefined();
  });
});
