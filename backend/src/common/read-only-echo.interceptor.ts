import { isDeepStrictEqual } from 'node:util';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { getMetadataStorage } from 'class-validator';
import type { HttpRequest as Request } from '../http/request';
import { validationFailed } from './errors';

const BODY_PARAM = 3; // RouteParamtypes.BODY

/** The writable fields of the route's body DTO, or undefined when it takes no DTO body. */
function writableFields(ctx: ExecutionContext): Set<string> | undefined {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, ctx.getClass(), ctx.getHandler().name) ?? {}) as Record<string, { index: number }>;
  const body = Object.entries(args).find(([key]) => key.split(':')[0] === String(BODY_PARAM));
  if (!body) return undefined;
  // class-validator's metadata API takes the DTO constructor as a plain Function.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  const types = Reflect.getMetadata('design:paramtypes', ctx.getClass().prototype, ctx.getHandler().name) as Function[] | undefined;
  const dto = types?.[body[1].index];
  if (!dto || dto === Object) return undefined;
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((m) => m.propertyName),
  );
}

/**
 * react-admin's simple-rest client PUTs the whole record as GET returned it, read-only fields
 * (id, created_at, version, question_text, ...) included. Fields the DTO does not accept are dropped
 * here whatever their value when GET returns them: the echo may be older than the record (the polish
 * worker rewrites question_text after the form loaded it), and only writable fields change. An `id`
 * other than the record's is refused by name (the body is about another record), and a field GET does
 * not return stays for the validation pipe to refuse as unknown. Used on the controllers with PUT
 * routes (test/api/http-conventions holds them to it), not globally: see page-response.ts.
 */
@Injectable()
export class ReadOnlyEchoInterceptor implements NestInterceptor {
  async intercept(ctx: ExecutionContext, next: CallHandler) {
    const req = ctx.switchToHttp().getRequest<Request>();
    const body = req.body as unknown;
    if (req.method !== 'PUT' || !body || typeof body !== 'object' || Array.isArray(body)) return next.handle();
    const writable = writableFields(ctx);
    if (!writable) return next.handle();
    const extra = Object.keys(body).filter((k) => !writable.has(k));
    if (!extra.length) return next.handle();
    const stored = await this.current(req);
    if (!stored) return next.handle();
    for (const key of extra) {
      if (!Object.hasOwn(stored, key)) continue;
      if (key === 'id' && !isDeepStrictEqual((body as Record<string, unknown>)[key], stored[key])) {
        throw validationFailed([{ field: key, message: `'${key}' is read-only` }]);
      }
      delete (body as Record<string, unknown>)[key];
    }
    return next.handle();
  }

  /** The record as the caller's own GET of the same URL returns it (same access rules, same shape). */
  private async current(req: Request): Promise<Record<string, unknown> | undefined> {
    const port = req.socket.localPort;
    if (!port) return undefined;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    const res = await fetch(`http://127.0.0.1:${port}${req.originalUrl}`, { headers }).catch(() => undefined);
    if (!res?.ok) return undefined;
    const json = (await res.json().catch(() => undefined)) as unknown;
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  }
}
