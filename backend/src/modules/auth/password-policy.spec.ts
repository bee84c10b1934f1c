import { passwordWeaknesses } from './password-policy';

describe('password policy', () => {
  it('accepts a long passphrase', () => {
    expect(passwordWeaknesses('correct horse battery', 'ann@clinic.org')).toEqual([]);
  });
  it('rejects short passwords with a reason', () => {
    expect(passwordWeaknesses('Ab1!', 'a@b.co')).toContain('Password must be at least 10 characters long');
  });
  it('rejects over-long passwords', () => {
    expect(passwordWeaknesses('x'.repeat(129) + 'y')).toContain('Password must be at most 128 characters long');
  });
  it('rejects common passwords whatever their case', () => {
    expect(passwordWeaknesses('Password123')).toContain('Password is too common');
  });
  it('rejects repeated characters and sequences', () => {
    expect(passwordWeaknesses('aaaaaaaaaaaa')).toContain('Password must not be a single repeated character');
    expect(passwordWeaknesses('abcdefghijkl')).toContain('Password must not be a simple sequence');
  });
  it('rejects passwords containing the e-mail local part', () => {
    expect(passwordWeaknesses('jane.doe-2026!', 'Jane.Doe@clinic.org')).toContain('Password must not contain your email address');
  });
  it('lists every reason at once', () => {
    expect(passwordWeaknesses('aaaa').length).toBe(2);
  });
});
