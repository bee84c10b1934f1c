import type { ServerResponse } from 'node:http';

/**
 * The few things our code does to a response outside Nest's own return-value path, written once for
 * both HTTP adapters (HTTP_ADAPTER, docs/operations.md#http-adapter). On Express the calls are exactly
 * the Express ones they replace; a Fastify reply is told apart by its `raw` Node response.
 */

interface ExpressLike {
  headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  status(code: number): ExpressLike;
  json(body: unknown): unknown;
  redirect(status: number, url: string): unknown;
  cookie(name: string, value: string, options: Record<string, unknown>): unknown;
  clearCookie(name: string, options: Record<string, unknown>): unknown;
}

interface FastifyLike {
  raw: ServerResponse;
  sent: boolean;
  header(name: string, value: string): FastifyLike;
  status(code: number): FastifyLike;
  type(contentType: string): FastifyLike;
  send(body?: unknown): FastifyLike;
  redirect(url: string, status: number): FastifyLike;
  // @fastify/cookie (registered by http/fastify.ts)
  setCookie(name: string, value: string, options: Record<string, unknown>): FastifyLike;
  clearCookie(name: string, options: Record<string, unknown>): FastifyLike;
}

function isFastifyReply(res: unknown): res is FastifyLike {
  return typeof res === 'object' && res !== null && typeof (res as { raw?: unknown }).raw === 'object' && 'sent' in res;
}

export function headersSent(res: unknown): boolean {
  return isFastifyReply(res) ? res.sent || res.raw.headersSent : (res as ExpressLike).headersSent;
}

export function setHeader(res: unknown, name: string, value: string): void {
  if (isFastifyReply(res)) res.header(name, value);
  else (res as ExpressLike).setHeader(name, value);
}

/** Sends `body` as JSON with `status` (Express: `res.status().json()`). */
export function sendJson(res: unknown, status: number, body: unknown): void {
  if (isFastifyReply(res)) res.status(status).type('application/json; charset=utf-8').send(body);
  else (res as ExpressLike).status(status).json(body);
}

export function redirect(res: unknown, status: number, url: string): void {
  if (isFastifyReply(res)) res.redirect(url, status);
  else (res as ExpressLike).redirect(status, url);
}

export interface CookieOptions {
  httpOnly?: boolean;
  sameSite?: 'lax' | 'strict';
  secure?: boolean;
  path: string;
  /** Milliseconds, as Express takes it (Fastify's cookie plugin takes seconds). */
  maxAge?: number;
}

export function setCookie(res: unknown, name: string, value: string, options: CookieOptions): void {
  if (!isFastifyReply(res)) {
    (res as ExpressLike).cookie(name, value, { ...options });
    return;
  }
  const { maxAge, ...rest } = options;
  // Express writes both Max-Age (seconds) and Expires for a maxAge; so does this.
  res.setCookie(name, value, maxAge === undefined ? rest : { ...rest, maxAge: maxAge / 1000, expires: new Date(Date.now() + maxAge) });
}

export function clearCookie(res: unknown, name: string, options: { path: string }): void {
  if (isFastifyReply(res)) res.clearCookie(name, options);
  else (res as ExpressLike).clearCookie(name, options);
}

/**
 * What passport's strategies call on the response they are given (a redirect: `statusCode`,
 * `setHeader`, `end`). Express's response is one already; a Fastify reply gets a view that writes
 * through the reply, so the hooks' headers (helmet, request id) and cookies go out with it.
 */
export function passportResponse(res: unknown): unknown {
  if (!isFastifyReply(res)) return res;
  const reply = res;
  return {
    set statusCode(code: number) {
      reply.status(code);
    },
    get statusCode() {
      return reply.raw.statusCode;
    },
    setHeader(name: string, value: string) {
      reply.header(name, value);
    },
    end(body?: string) {
      reply.send(body ?? '');
    },
    cookie(name: string, value: string, options: CookieOptions) {
      setCookie(reply, name, value, options);
    },
    clearCookie(name: string, options: { path: string }) {
      clearCookie(reply, name, options);
    },
  };
}
