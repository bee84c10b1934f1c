import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { map, type Observable } from 'rxjs';

/**
 * Resources go out as FHIR's own media type. Only successful answers: a refusal is the API's
 * error body (docs/api.md), not an OperationOutcome, and says so with application/json.
 */
@Injectable()
export class FhirJsonInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body: unknown) => {
        context.switchToHttp().getResponse<{ type(contentType: string): unknown }>().type('application/fhir+json; charset=utf-8');
        return body;
      }),
    );
  }
}
