import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, text, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { AppModule } from '../app.module';
import type { AppConfig } from '../config/app-config';
import type { AppLogger } from '../common/logger';
import { returnPagesAsLists } from '../common/page-response';
import { requestContext } from '../common/request-context';
import { verifyJsonDepth } from '../common/input-safety';
import { serveFrontend } from '../static-files';
import { CONTENT_SECURITY_POLICY, JSON_TYPES, KEEP_ALIVE_TIMEOUT_MS, NDJSON_TYPES, REQUEST_ID } from './shared';

/**
 * Nest on Express (the default HTTP_ADAPTER): everything that runs before Nest's routes (request ids,
 * helmet, no-store on /api, CORS, the JSON body parsers with the depth check).
 */
export async function createExpressApp(config: AppConfig, logger: AppLogger): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { logger, bodyParser: false });
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // API responses are never cached (no-store below), so an ETag is a hash of every body for nothing.
  // Static files keep theirs: express.static sets its own.
  app.set('etag', false);
  // A proxy that keeps upstream connections alive (nginx keepalive_timeout defaults to 60 s) must
  // never reuse a socket Node has just closed: that race resets a request in flight, and a POST is
  // not retried. Node's default of 5 s lost an answer under load in the multi-process test.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;

  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.header('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (!req.originalUrl.startsWith('/api')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Method, path and status only: bodies and query strings may hold secrets.
      requestContext.run({ requestId }, () => logger.info(`${req.method} ${req.path} ${res.statusCode} ${ms.toFixed(1)}ms`, 'HTTP'));
    });
    requestContext.run({ requestId }, next);
  });
  app.use(helmet({ contentSecurityPolicy: CONTENT_SECURITY_POLICY }));
  // Tokens and patient data: no shared or browser cache keeps an API response.
  app.use('/api', (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.enableCors({
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    exposedHeaders: ['Content-Range', 'X-Request-Id'],
  });
  // Nest's typed useBodyParser hides `verify`; the depth check must run before JSON.parse.
  // A patient's record in one Bundle is larger than any other body: `POST /api/fhir` takes one, and so does a CDS Hooks
  // call (`POST /api/cds-services/:id`), whose prefetch carries the patient's histories.
  const recordsJson = json({ limit: config.recordsBodyLimit, verify: verifyJsonDepth, type: JSON_TYPES });
  // A panel's NDJSON (`POST /api/fhir/$import`) is read as text and split into lines by the import itself.
  const importText = text({ limit: config.importBodyLimit, type: NDJSON_TYPES });
  app.use('/api/fhir', (req: Request, res: Response, next: NextFunction) =>
    req.path === '/' ? recordsJson(req, res, next) : req.path === '/$import' ? importText(req, res, next) : next(),
  );
  app.use('/api/cds-services', (req: Request, res: Response, next: NextFunction) =>
    req.method === 'POST' && /^\/[^/]+$/.test(req.path) ? recordsJson(req, res, next) : next(),
  );
  app.use(json({ limit: config.bodyLimit, verify: verifyJsonDepth, type: JSON_TYPES }));
  returnPagesAsLists(app.getHttpAdapter().getInstance());
  return app;
}

/** After Swagger's routes: the built web app for every other GET outside /api. */
export function serveExpressFrontend(app: INestApplication, dist: string): void {
  serveFrontend(app as NestExpressApplication, dist);
}
