import { redactSecrets } from './redact';

describe('log redaction', () => {
  const token = 'q8Zr3kVw0yTn5uLx2PfA9sHd7cJm4bGe1oNiRtYwXvE';

  it.each([
    [`GET /api/invitations/by-token/${token} 200 3.1ms`, 'GET /api/invitations/by-token/[redacted] 200 3.1ms'],
    [`GET /invite/${token}`, 'GET /invite/[redacted]'],
    [`GET /api/reset-password/${token}/confirm`, 'GET /api/reset-password/[redacted]/confirm'],
    [`GET /api/polish/dashboard?ticket=${token}&x=1`, 'GET /api/polish/dashboard?ticket=[redacted]&x=1'],
    [`callback?code=${token}&state=${token}`, 'callback?code=[redacted]&state=[redacted]'],
    [`Authorization: Bearer ${token}`, 'Authorization: Bearer [redacted]'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXZhbHVl here', 'jwt [redacted] here'],
  ])('%s', (line, expected) => {
    expect(redactSecrets(line)).toBe(expected);
    expect(redactSecrets(line)).not.toContain(token);
  });

  it('leaves ordinary paths and ids alone', () => {
    const line = 'POST /api/auth/token 200; GET /api/users/0b7c7f1e-3a52-4d3e-9a0b-9f4c1d2e3f40 404';
    expect(redactSecrets(line)).toBe(line);
  });
});
