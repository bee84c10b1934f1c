import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map } from 'rxjs';
import { Page } from './pagination';

/** Lists are returned as a bare array with their total in Content-Range (simple-rest). */
@Injectable()
export class PageInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof Page)) return result;
        context.switchToHttp().getResponse<Response>().setHeader('Content-Range', result.contentRange);
        return result.items;
      }),
    );
  }
}
