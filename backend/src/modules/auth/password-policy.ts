/**
 * Password policy (documented in the README): length over composition, as NIST SP 800-63B advises.
 * - at least 10 characters, at most 128 (argon2 cost stays bounded)
 * - not one of the passwords attackers try first
 * - not the e-mail address or its local part
 * - not a single repeated character or a plain sequence
 */
import { passwordLengthProblem } from '@cds/contracts';

const COMMON = new Set([
  'password',
  'password1',
  'password12',
  'password123',
  'password1234',
  'passw0rd',
  'p@ssw0rd',
  '1234567890',
  '0123456789',
  '12345678910',
  'qwertyuiop',
  'qwerty1234',
  'qwerty12345',
  '1q2w3e4r5t',
  'iloveyou12',
  'letmein123',
  'welcome123',
  'admin12345',
  'abcdefghij',
  'abc1234567',
  'football12',
  'baseball12',
  'sunshine12',
  'princess12',
  'changeme12',
  'trustno1234',
  'superman12',
  'diabetes12',
  'doctor1234',
  'hospital12',
  'welcome1234',
  'administrator',
  'passwordpassword',
]);

export function passwordWeaknesses(password: string, email?: string): string[] {
  const reasons: string[] = [];
  const length = passwordLengthProblem(password);
  if (length) reasons.push(length);
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) reasons.push('Password is too common');
  if (password.length > 0 && /^(.)\1*$/.test(password)) reasons.push('Password must not be a single repeated character');
  else if (password.length >= 4 && isSequence(lower)) reasons.push('Password must not be a simple sequence');
  if (email) {
    const e = email.toLowerCase();
    const local = e.split('@')[0];
    if (lower === e || (local.length >= 4 && lower.includes(local))) reasons.push('Password must not contain your email address');
  }
  return reasons;
}

function isSequence(s: string): boolean {
  const step = s.charCodeAt(1) - s.charCodeAt(0);
  if (Math.abs(step) !== 1) return false;
  for (let i = 2; i < s.length; i++) if (s.charCodeAt(i) - s.charCodeAt(i - 1) !== step) return false;
  return true;
}
