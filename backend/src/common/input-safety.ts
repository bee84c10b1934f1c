import { DomainError } from './errors';

/** Deepest nesting a request body may have. The deepest real body (a rule's condition tree) stays well below it. */
export const MAX_JSON_DEPTH = 32;

/**
 * Counts bracket nesting in raw JSON before JSON.parse runs, so a 25 kB body of nested
 * objects is refused at the edge instead of overflowing the stack in validation.
 * Returns false as soon as the depth exceeds `max`. Takes the text or its UTF-8 bytes: every
 * character counted is ASCII, and no byte of a multi-byte UTF-8 sequence is below 0x80.
 */
export function jsonDepthWithin(text: string | Uint8Array, max = MAX_JSON_DEPTH): boolean {
  const bytes = typeof text !== 'string';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = bytes ? text[i] : text.charCodeAt(i);
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

/** body-parser `verify` hook: a body nested too deeply is a 400 `invalid_json`. Reads the bytes: no copy of the body as text. */
export function verifyJsonDepth(_req: unknown, _res: unknown, buf: Buffer) {
  if (!jsonDepthWithin(buf)) {
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
  if (typeof value === 'object' && value !== null && SAFE_BODIES.has(value)) return;
  const problem = findUnsafe(value, field, 0);
  if (problem) throw new DomainError('validation_failed', problem.message, [problem]);
}

/** Bodies parsed from text shown safe as a whole (`markIfSafeText`): their walk would find nothing. */
const SAFE_BODIES = new WeakSet<object>();

/**
 * Marks `parsed` (JSON.parse of `text`) as needing no walk when its text has no `\u` escape and no
 * prototype key: JSON.parse refuses a raw NUL, UTF-8 decoding never yields a lone surrogate, and an
 * unescaped key appears in the text as written. Anything else is walked as before.
 */
export function markIfSafeText(text: string, parsed: unknown): void {
  if (typeof parsed !== 'object' || parsed === null) return;
  if (text.includes('\\u') || text.includes('"__proto__"') || text.includes('"constructor"') || text.includes('"prototype"')) return;
  SAFE_BODIES.add(parsed);
}

/** A field's path as segments, pushed and popped during the walk; joined into text only for the problem reported. */
type Path = (string | number)[];
const joined = (path: Path) => path.join('.');

function findUnsafe(value: unknown, field: string, depth: number): { field: string; message: string } | undefined {
  return unsafeIn(value, field ? [field] : [], depth);
}

function unsafeIn(value: unknown, path: Path, depth: number): { field: string; message: string } | undefined {
  if (typeof value === 'string') return unsafeText(value, path);
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > MAX_JSON_DEPTH) return { field: joined(path), message: `${joined(path)} is nested too deeply` };
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  for (const key of keys) {
    path.push(key);
    const found =
      typeof key === 'string' && PROTO_KEYS.has(key)
        ? { field: joined(path), message: `Unknown field '${joined(path)}'` }
        : ((typeof key === 'string' ? unsafeText(key, path) : undefined) ??
          unsafeIn((value as Record<string | number, unknown>)[key], path, depth + 1));
    path.pop();
    if (found) return found;
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function hasUnsafeText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

function unsafeText(text: string, path: Path): { field: string; message: string } | undefined {
  if (!hasUnsafeText(text)) return undefined;
  const field = joined(path);
  if (text.includes('\u0000')) return { field, message: `${field || 'value'} must not contain NUL characters` };
  return { field, message: `${field || 'value'} must be well-formed Unicode text` };
}
