import { resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from './config/app-config';
import { AllExceptionsFilter } from './common/error.filter';
import { withContractSchemas } from './common/contract-response';
import { AppLogger } from './common/logger';
import { validationPipe } from './common/validation';

export const FRONTEND_DIST = resolve(__dirname, '..', '..', 'frontend', 'dist');

export { KEEP_ALIVE_TIMEOUT_MS } from './http/shared';

/**
 * Builds the HTTP application (used by main.ts and by the end-to-end tests) on the HTTP_ADAPTER's
 * framework: Fastify by default, Express when HTTP_ADAPTER=express. What differs between them lives in
 * src/http/express.ts and src/http/fastify.ts; everything here is Nest's and applies to both.
 */
export async function createApp(config: AppConfig, frontendDist = FRONTEND_DIST): Promise<INestApplication> {
  const logger = new AppLogger(config.logLevel);
  // Loaded on demand: a process on one adapter never loads the other framework.
  /* eslint-disable @typescript-eslint/no-require-imports -- deliberate lazy load (CommonJS build) */
  const http =
    config.httpAdapter === 'fastify'
      ? (() => {
          const { createFastifyApp, serveFastifyFrontend } = require('./http/fastify') as typeof import('./http/fastify');
          return { create: createFastifyApp, serveFrontend: serveFastifyFrontend };
        })()
      : (() => {
          const { createExpressApp, serveExpressFrontend } = require('./http/express') as typeof import('./http/express');
          return { create: createExpressApp, serveFrontend: serveExpressFrontend };
        })();
  /* eslint-enable @typescript-eslint/no-require-imports */
  const app = await http.create(config, logger);
  app.setGlobalPrefix('api');
  app.useGlobalPipes(validationPipe);
  app.useGlobalFilters(new AllExceptionsFilter());

  const openApi = new DocumentBuilder()
    .setTitle('Diabetes clinical decision support API')
    .setVersion(config.version)
    .addBearerAuth()
    .build();
  SwaggerModule.setup('api/docs', app, () => withContractSchemas(SwaggerModule.createDocument(app, openApi)), {
    jsonDocumentUrl: 'api/docs-json',
  });

  await http.serveFrontend(app, frontendDist);
  return app;
}
