import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, normalize, relative, sep } from 'node:path';
import { Logger, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from '../app.module';
import type { AppConfig } from '../config/app-config';
import type { AppLogger } from '../common/logger';
import { jsonDepthWithin, markIfSafeText } from '../common/input-safety';
import { Page } from '../common/pagination';
import { requestContext } from '../common/request-context';
import { IMMUTABLE } from '../static-files';
import { JSON_TYPES, KEEP_ALIVE_TIMEOUT_MS, limitInBytes, NDJSON_TYPES, REQUEST_ID, securityHeaders } from './shared';

export { limitInBytes };

/**
 * Nest on Fastify (the default; HTTP_ADAPTER=express for Express; docs/operations.md#http-adapter): the same edge as
 * src/http/express.ts with Fastify hooks and plugins. Errors carry the `type` body-parser gives them,
 * so common/error.filter.ts answers with the same bodies on both adapters.
 */

/** A body-parser-shaped error: common/error.filter.ts maps its `type`. */
const bodyError = (message: string, type: string, status: number) => Object.assign(new Error(message), { status, type });

/** As body-parser's json() in strict mode: empty is {}, only an object or array at the top, depth checked before parsing. */
export function parseJsonBody(_req: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void): void {
  if (body.length === 0) return done(null, {});
  if (!jsonDepthWithin(body)) return done(bodyError('JSON nested too deeply', 'entity.too.deep', 400));
  const text = body.toString('utf8');
  const first = /^[ \t\n\r]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') return done(bodyError('Malformed JSON body', 'entity.parse.failed', 400));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return done(bodyError('Malformed JSON body', 'entity.parse.failed', 400));
  }
  markIfSafeText(text, parsed);
  done(null, parsed);
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
const pathOf = (url: string) => url.split('?')[0];
const IMPORT_PATH = '/api/fhir/$import';

export async function createFastifyApp(config: AppConfig, logger: AppLogger): Promise<INestApplication> {
  const adapter = new FastifyAdapter({
    trustProxy: config.trustProxy,
    bodyLimit: limitInBytes(config.bodyLimit),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // As Express's router: /a/ is /a, and paths match whatever their case.
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: 500 },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, { logger, bodyParser: false });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;

  // Request ids: on the response, and on every log line written while serving (AsyncLocalStorage).
  // Entered again before the handler: reading the body is an async boundary that loses the store.
  const ids = new WeakMap<FastifyRequest, string>();
  fastify.addHook('onRequest', (req, reply, done) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ids.set(req, requestId);
    reply.header('x-request-id', requestId);
    requestContext.run({ requestId }, done);
  });
  fastify.addHook('preHandler', (req, _reply, done) => {
    const requestId = ids.get(req);
    if (requestId) requestContext.run({ requestId }, done);
    else done();
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    const requestId = ids.get(req);
    if (requestId && logger.infoEnabled && isApi(req.originalUrl)) {
      // Method, path and status only: bodies and query strings may hold secrets.
      requestContext.run({ requestId }, () =>
        logger.info(`${req.method} ${pathOf(req.originalUrl)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`, 'HTTP'),
      );
    }
    done();
  });
  // helmet's headers, on every response (the SPA, 404s and errors too), as Express's helmet() sets them.
  const secure = securityHeaders();
  fastify.addHook('onRequest', (_req, reply, done) => {
    secure(reply.raw);
    done();
  });
  // Only to set cookies: nothing reads request.cookies, so no parsing hook on every request.
  await app.register(fastifyCookie as never, { hook: false });
  // Tokens and patient data: no shared or browser cache keeps an API response.
  fastify.addHook('onRequest', (req, reply, done) => {
    if (isApi(req.url)) reply.header('Cache-Control', 'no-store');
    done();
  });
  app.enableCors({
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    exposedHeaders: ['Content-Range', 'X-Request-Id'],
  });

  // JSON bodies only, as on Express: any other media type reaches the route without a body.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_TYPES, { parseAs: 'buffer' }, parseJsonBody);
  // A panel's NDJSON, as text, on `POST /api/fhir/$import` only (as on Express; elsewhere no body).
  fastify.addContentTypeParser(NDJSON_TYPES, { parseAs: 'string' }, (req, body, done) =>
    done(null, pathOf(req.url) === IMPORT_PATH ? body : undefined),
  );
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  // A patient's record in one Bundle is larger than any other body: `POST /api/fhir` takes one, and so does a CDS Hooks
  // call, whose prefetch carries the patient's histories (a hundred blood-pressure panels alone are over 100 kB).
  const recordsLimit = limitInBytes(config.recordsBodyLimit);
  const HOOK_PATH = '/api/cds-services/:id';
  const importLimit = limitInBytes(config.importBodyLimit);
  fastify.addHook('onRoute', (route) => {
    // FHIR operations (`:id/\\$next-question`) escape the `$` for path-to-regexp; find-my-way takes it as is.
    if (route.url.includes('\\$')) route.url = route.url.replaceAll('\\$', '$');
    const methods = [route.method].flat();
    if (methods.includes('POST') && (route.url === '/api/fhir' || route.url === '/api/fhir/' || route.url === HOOK_PATH))
      route.bodyLimit = recordsLimit;
    if (methods.includes('POST') && route.url === IMPORT_PATH) route.bodyLimit = importLimit;
  });

  // A returned Page goes out as its bare list with the total in Content-Range (common/page-response.ts).
  fastify.addHook('preSerialization', (_req, reply, payload, done) => {
    if (!(payload instanceof Page)) return done(null, payload);
    reply.header('Content-Range', payload.contentRange);
    done(null, payload.items);
  });
  return app;
}

/**
 * The built SPA, as src/static-files.ts serves it on Express: files under dist (their brotli or gzip
 * sibling when accepted), hashed assets immutable, index.html for every other GET outside /api. A
 * catch-all route in a plugin of its own (Nest's routes and Bull Board's are more specific), so its
 * reply.sendFile stays out of other plugins' way; what it does not serve goes to the not-found handler.
 */
export async function serveFastifyFrontend(app: INestApplication, dist: string): Promise<void> {
  const indexHtml = join(dist, 'index.html');
  if (!existsSync(indexHtml)) {
    new Logger('Frontend').warn(`No built frontend at ${dist}; run npm run build`);
    return;
  }
  const assets = join(dist, 'assets') + sep;
  const plugin: FastifyPluginCallback = (fastify, _opts, done) => {
    void fastify.register(fastifyStatic, {
      root: dist,
      serve: false,
      preCompressed: true,
      cacheControl: false,
      dotfiles: 'deny',
      // `path` is the file sent: the .br or .gz sibling when one was chosen.
      setHeaders(reply, path) {
        const original = path.replace(/\.(br|gz)$/, '');
        // As on Express, spelled `Accept-Encoding` (the plugin would add it in lower case).
        const vary = reply.getHeader('vary');
        reply.header('Vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
        reply.header(
          'Cache-Control',
          original === indexHtml ? 'no-cache' : original.startsWith(assets) ? IMMUTABLE : 'public, max-age=3600',
        );
      },
    });
    fastify.get('/*', (req: FastifyRequest, reply: FastifyReply) => {
      const next = () => void reply.callNotFound();
      if (isApi(req.url)) return next();
      let path: string;
      try {
        path = decodeURIComponent(pathOf(req.url));
      } catch {
        return next();
      }
      const file = normalize(join(dist, path));
      const inside = file.startsWith(dist + sep) && !path.split('/').some((s) => s.startsWith('.'));
      const compressed = file.endsWith('.br') || file.endsWith('.gz');
      if (inside && file !== indexHtml && !compressed && isFile(file)) {
        void reply.sendFile(relative(dist, file).split(sep).join('/'));
        return;
      }
      // A missing hashed asset is a 404, not the SPA page (a stale tab must not parse HTML as JS).
      if (file.startsWith(assets)) return next();
      void reply.sendFile('index.html');
    });
    done();
  };
  await (app.getHttpAdapter().getInstance() as FastifyInstance).register(plugin);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
