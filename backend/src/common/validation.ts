import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError, FieldError } from './errors';
import { assertSafeInput } from './input-safety';

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message: tidy(message, field) }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

function tidy(message: string, field: string): string {
  if (message.startsWith('property ') && message.endsWith(' should not exist')) return `Unknown field '${field}'`;
  return message;
}

type DtoClass = new () => object;

/**
 * Checks that accept a body only when the class's decorators certainly would (anything else, valid or not, goes on to
 * class-validator, which gives its usual errors): for hot routes, where class-transformer and class-validator cost
 * more than the handler (the answer: 0.05–0.16 ms of CPU per request, docs/benchmarks.md).
 */
const fastAccepts = new Map<DtoClass, (body: Record<string, unknown>) => boolean>();

/** Registers `accepts` for `dto`: it must return true only for plain bodies that `dto`'s decorators accept as they are. */
export function fastAccept<T extends object>(dto: new () => T, accepts: (body: Record<string, unknown>) => boolean): void {
  fastAccepts.set(dto, accepts);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Refuses NUL, lone surrogates and prototype keys in bodies, queries and path parameters before the DTOs see them. */
class SafeValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type !== 'custom') assertSafeInput(value, metadata.type === 'body' ? '' : (metadata.data ?? ''));
    const accepts = metadata.type === 'body' && metadata.metatype ? fastAccepts.get(metadata.metatype as DtoClass) : undefined;
    // As class-transformer would give it: an instance of the DTO with the body's fields.
    if (accepts && isPlainObject(value) && accepts(value))
      return Promise.resolve(Object.assign(new (metadata.metatype as DtoClass)(), value));
    return super.transform(value, metadata);
  }
}

/** Whitelist, forbid unknown fields, transform; failures carry per-field details. */
export const validationPipe = new SafeValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  forbidUnknownValues: true,
  exceptionFactory: (errors) => {
    const details = flatten(errors);
    return new DomainError('validation_failed', details.map((d) => d.message).join('; ') || 'Validation failed', details);
  },
});
