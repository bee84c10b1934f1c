import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { json, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { AllExceptionsFilter } from './common/error.filter';
import { withContractSchemas } from './common/contract-response';
import { AppLogger } from './common/logger';
import { returnPagesAsLists } from './common/page-response';
import { requestContext } from './common/request-context';
import { validationPipe } from './common/validation';
import { verifyJsonDepth } from './common/input-safety';
import { serveFrontend } from './static-files';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
export const FRONTEND_DIST = resolve(__dirname, '..', '..', 'frontend', 'dist');

/** Builds the HTTP application (used by main.ts and by the end-to-end tests). */
/** Longer than any proxy's idle timeout for upstream keep-alive connections (nginx: 60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const logger = new AppLogger(config.logLevel);
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
  // Scripts only from our own origin: no page we serve (the built index.html, Swagger UI, Bull Board)
  // has an inline script, so there is nothing for a nonce or hash to allow, and an injected
  // <script> or on* attribute never runs. test/browser/csp.browser-spec.ts visits every page for violations.
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: { 'script-src': ["'self'"], 'img-src': ["'self'", 'data:', 'blob:'] },
      },
    }),
  );
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
  const jsonTypes = ['application/json', 'application/fhir+json'];
  // A patient's record in one Bundle is larger than any other body; only `POST /api/fhir` takes one.
  const recordsJson = json({ limit: config.recordsBodyLimit, verify: verifyJsonDepth, type: jsonTypes });
  app.use('/api/fhir', (req: Request, res: Response, next: NextFunction) => (req.path === '/' ? recordsJson(req, res, next) : next()));
  app.use(json({ limit: config.bodyLimit, verify: verifyJsonDepth, type: jsonTypes }));
  app.setGlobalPrefix('api');
  app.useGlobalPipes(validationPipe);
  app.useGlobalFilters(new AllExceptionsFilter());
  returnPagesAsLists(app.getHttpAdapter().getInstance());

  const openApi = new DocumentBuilder()
    .setTitle('Diabetes clinical decision support API')
    .setVersion(config.version)
    .addBearerAuth()
    .build();
  SwaggerModule.setup('api/docs', app, () => withContractSchemas(SwaggerModule.createDocument(app, openApi)), {
    jsonDocumentUrl: 'api/docs-json',
  });

  serveFrontend(app, FRONTEND_DIST);
  return app;
}
