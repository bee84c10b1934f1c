import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { AllExceptionsFilter } from './common/error.filter';
import { AppLogger } from './common/logger';
import { PageInterceptor } from './common/page.interceptor';
import { requestContext } from './common/request-context';
import { validationPipe } from './common/validation';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
export const FRONTEND_DIST = resolve(__dirname, '..', '..', 'frontend', 'dist');

/** Builds the HTTP application (used by main.ts and by the end-to-end tests). */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const logger = new AppLogger(config.logLevel);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { logger, bodyParser: false });
  app.set('trust proxy', 'loopback');
  app.disable('x-powered-by');

  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.header('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (!req.originalUrl.startsWith('/api')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Method, path and status only: bodies and query strings may hold secrets.
      requestContext.run({ requestId }, () =>
        logger.info(`${req.method} ${req.path} ${res.statusCode} ${ms.toFixed(1)}ms`, 'HTTP'));
    });
    requestContext.run({ requestId }, next);
  });
  app.use(helmet({
    contentSecurityPolicy: {
      directives: { 'script-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:', 'blob:'] },
    },
  }));
  app.enableCors({
    origin: [/^http:\/\/localhost:\d+$/, /^http:\/\/127\.0\.0\.1:\d+$/],
    exposedHeaders: ['Content-Range', 'X-Request-Id'],
  });
  app.useBodyParser('json', { limit: config.bodyLimit });
  app.setGlobalPrefix('api');
  app.useGlobalPipes(validationPipe);
  app.useGlobalFilters(new AllExceptionsFilter());
  app.useGlobalInterceptors(new PageInterceptor());

  const openApi = new DocumentBuilder()
    .setTitle('Diabetes clinical decision support API')
    .setVersion(config.version)
    .addBearerAuth()
    .build();
  SwaggerModule.setup('api/docs', app, () => SwaggerModule.createDocument(app, openApi), { jsonDocumentUrl: 'api/docs-json' });

  serveFrontend(app);
  return app;
}

/** The built SPA answers every GET outside /api with index.html (client-side routing). */
function serveFrontend(app: NestExpressApplication) {
  if (!existsSync(join(FRONTEND_DIST, 'index.html'))) {
    new Logger('Frontend').warn(`No built frontend at ${FRONTEND_DIST}; run npm run build`);
    return;
  }
  app.useStaticAssets(FRONTEND_DIST, { index: false, maxAge: '1h', setHeaders: (res, path) => {
    if (path.includes(`${join('dist', 'assets')}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  } });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || req.path === '/api' || req.path.startsWith('/api/')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(FRONTEND_DIST, 'index.html'));
  });
}
