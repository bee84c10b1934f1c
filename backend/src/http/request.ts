import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What our controllers and interceptors read from a request: fields Express's request and Fastify's
 * have alike (HTTP_ADAPTER, docs/operations.md#http-adapter), so no code outside src/http names either.
 */
export interface HttpRequest {
  method: string;
  /** The path and query as received (both frameworks keep it while routing rewrites `url`). */
  originalUrl: string;
  headers: IncomingHttpHeaders;
  socket: Socket;
  /** The client's address, through TRUST_PROXY. */
  ip?: string;
  /** Host header (or X-Forwarded-Host from a trusted proxy), with its port. */
  host?: string;
  protocol: string;
  body?: unknown;
  user?: unknown;
}
