import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { createApp } from './app';
import type { AppConfig } from './config/app-config';
import { embeddedDataDir, startEmbeddedPostgres, type EmbeddedDatabase } from './database/embedded';

export interface Runtime {
  app: NestExpressApplication;
  config: AppConfig;
  url: string;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Embedded mode only: keep the database in memory instead of under DATA_DIR (tests). */
  inMemory?: boolean;
  listen?: boolean;
}

/**
 * Starts the product: the embedded database when no DATABASE_URL is set, pending
 * migrations, then the HTTP app.
 */
export async function startRuntime(config: AppConfig, opts: RuntimeOptions = {}): Promise<Runtime> {
  let embedded: EmbeddedDatabase | undefined;
  let resolved = config;
  if (!config.databaseUrl) {
    embedded = await startEmbeddedPostgres(opts.inMemory ? undefined : embeddedDataDir(config.dataDir));
    resolved = { ...config, databaseUrl: embedded.url };
  }
  let app: NestExpressApplication | undefined;
  try {
    app = await createApp(resolved);
    await app.get(DataSource).runMigrations({ transaction: 'each' });
    app.enableShutdownHooks();
    if (opts.listen !== false) await app.listen(resolved.port, '0.0.0.0');
    else await app.init();
  } catch (e) {
    await app?.close().catch(() => undefined);
    await embedded?.close().catch(() => undefined);
    throw e;
  }
  const address = opts.listen !== false ? app.getHttpServer().address() : null;
  const port = address && typeof address === 'object' ? address.port : resolved.port;
  let closed = false;
  return {
    app,
    config: resolved,
    url: `http://localhost:${port}`,
    async close() {
      if (closed) return;
      closed = true;
      await app!.close();
      await embedded?.close();
    },
  };
}
