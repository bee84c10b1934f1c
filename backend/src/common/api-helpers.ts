import { createHash } from 'node:crypto';
import { registerDecorator, ValidateIf } from 'class-validator';
import { DomainError } from './errors';
import { UUID } from './pagination';

/** Shared by every feature module: small helpers for DTOs, list filters, timestamps, hashing and database errors. */

export const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Optional, but when present it must be valid: null is not "absent" (use IsOptional for nullable fields). */
export const Optional = () => ValidateIf((_, value) => value !== undefined);

/** Required text (after trimming) of at most `max` characters, with one message for each failure. */
export function IsRequiredText(required: string, max: number) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isRequiredText',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (v: unknown) => typeof v === 'string' && v.trim() !== '' && v.length <= max,
        defaultMessage: (args) =>
          typeof args?.value === 'string' && args.value.length > max ? `${propertyName} may hold at most ${max} characters` : required,
      },
    });
}

/** A reference to a row by id: one message when missing, another when it cannot be an id. */
export function IsReferenceId(required: string, invalid: string) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isReferenceId',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (v: unknown) => typeof v === 'string' && UUID.test(v),
        defaultMessage: (args) => (args?.value === undefined || args.value === null || args.value === '' ? required : invalid),
      },
    });
}

const badFilter = (field: string, message: string) => new DomainError('validation_failed', message, [{ field, message }]);

/** A misspelt filter silently returning everything would mislead: unknown keys are refused. */
export function assertFilterKeys(filter: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(filter).filter((k) => !allowed.includes(k));
  if (unknown.length) throw badFilter(`filter.${unknown[0]}`, `Unknown filter '${unknown[0]}'; use one of: ${allowed.join(', ')}`);
}

export function boolFilter(filter: Record<string, unknown>, key: string): boolean | undefined {
  const v = filter[key];
  if (v === undefined) return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw badFilter(`filter.${key}`, `filter.${key} must be true or false`);
}

export function textFilter(filter: Record<string, unknown>, key: string): string | undefined {
  const v = filter[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badFilter(`filter.${key}`, `filter.${key} must be text`);
  return v.trim() || undefined;
}

export function oneOfFilter<T extends string>(filter: Record<string, unknown>, key: string, allowed: readonly T[]): T[] | undefined {
  const v = filter[key];
  if (v === undefined || v === null) return undefined;
  const list = Array.isArray(v) ? v : [v];
  if (!list.length || !list.every((x) => typeof x === 'string' && allowed.includes(x as T))) {
    throw badFilter(`filter.${key}`, `filter.${key} must be one of: ${allowed.join(', ')}`);
  }
  return list as T[];
}

export function choiceFilter<T extends string>(filter: Record<string, unknown>, key: string, allowed: readonly T[]): T | undefined {
  const v = filter[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !allowed.includes(v as T))
    throw badFilter(`filter.${key}`, `filter.${key} must be one of: ${allowed.join(', ')}`);
  return v as T;
}

/** A timestamp as the API writes it (ISO 8601, UTC); null stays null. */
export const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** JSON with object keys sorted at every level: equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .map((k) => [k, (v as Record<string, unknown>)[k]]),
      );
    }
    return v;
  });
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const sameJson = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** PostgreSQL error codes reached through TypeORM's QueryFailedError. */
export const pgCode = (e: unknown) =>
  (e as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (e as { code?: string }).code;

/** A unique index refused the write (two requests raced past the application's own check). */
export const isUniqueViolation = (e: unknown) => pgCode(e) === '23505';
