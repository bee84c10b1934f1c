import { mkdirSync } from 'node:fs';

export interface EmbeddedDatabase {
  url: string;
  close(): Promise<void>;
}

// PGlite is ESM-only; a real dynamic import keeps this CommonJS build able to load it.
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

/**
 * Starts PostgreSQL compiled to WebAssembly (PGlite) behind a local socket so the
 * ordinary `pg` driver and TypeORM talk to it exactly as to a real server.
 * `dataDir` undefined keeps everything in memory (tests).
 */
export async function startEmbeddedPostgres(dataDir: string | undefined, poolSize = 10): Promise<EmbeddedDatabase> {
  const { PGlite } = await importEsm<typeof import('@electric-sql/pglite')>('@electric-sql/pglite');
  const { PGLiteSocketServer } = await importEsm<typeof import('@electric-sql/pglite-socket')>('@electric-sql/pglite-socket');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ? { dataDir } : {});
  // Every pooled connection needs a slot, or the pool dies with "Connection terminated unexpectedly".
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: poolSize + 2 });
  await server.start();
  const conn = server.getServerConn();
  return {
    url: `postgres://postgres:postgres@${conn}/postgres?sslmode=disable`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}

/** Where the embedded database keeps its files inside DATA_DIR. */
export function embeddedDataDir(dataDir: string): string {
  return `${dataDir}/pg`;
}
