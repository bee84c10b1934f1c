import { DomainError } from './errors';

/** Deepest nesting a request body may have. The deepest real body (a rule's condition tree) stays well below it. */
export const MAX_JSON_DEPTH = 32;

/**
 * Counts bracket nesting in raw JSON before JSON.parse runs, so a 25 kB body of nested
 * objects is refused at the edge instead of overflowing the stack in validation.
 * Returns false as soon as the depth exceeds `max`.
 */
export function jsonDepthWithin(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return false;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return true;
}

/** body-parser `verify` hook: a body nested too deeply is a 400 `invalid_json`. */
export function verifyJsonDepth(_req: unknown, _res: unknown, buf: Buffer) {
  if (!jsonDepthWithin(buf.toString('utf8'))) {
    throw Object.assign(new Error('JSON nested too deeply'), { status: 400, type: 'entity.too.deep' });
  }
}

// Own keys that name an object's prototype machinery: never a field of ours, and a classic pollution vector.
const PROTO_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * PostgreSQL refuses NUL in text and lone surrogates in json, and the driver error would
 * surface as a 500; prototype keys are never fields. Both are refused here, for bodies,
 * query strings and parsed list filters alike.
 */
export function assertSafeInput(value: unknown, field: string): void {
  const problem = findUnsafe(value, field, 0);
  if (problem) throw new DomainError('validation_failed', problem.message, [problem]);
}

function findUnsafe(value: unknown, field: string, depth: number): { field: string; message: string } | undefined {
  if (typeof value === 'string') return unsafeText(value, field);
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > MAX_JSON_DEPTH) return { field, message: `${field} is nested too deeply` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafe(value[i], `${field}.${i}`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const path = field ? `${field}.${key}` : key;
    if (PROTO_KEYS.has(key)) return { field: path, message: `Unknown field '${path}'` };
    const badKey = unsafeText(key, path);
    if (badKey) return badKey;
    const found = findUnsafe((value as Record<string, unknown>)[key], path, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unsafeText(text: string, field: string): { field: string; message: string } | undefined {
  if (text.includes('\u0000')) return { field, message: `${field || 'value'} must not contain NUL characters` };
  if (LONE_SURROGATE.test(text)) return { field, message: `${field || 'value'} must be well-formed Unicode text` };
  return undefined;
}
