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

/** Refuses NUL, lone surrogates and prototype keys in bodies, queries and path parameters before the DTOs see them. */
class SafeValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type !== 'custom') assertSafeInput(value, metadata.type === 'body' ? '' : (metadata.data ?? ''));
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
