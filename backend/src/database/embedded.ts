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
  keepExtendedQueriesTogether(server, db);
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

const SEQUENCE_CONTINUES = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

interface QueuedMessage { handlerId: number; message: Uint8Array; resolve(n: number): void; reject(e: unknown): void; onData(d: Uint8Array): void }
interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

/**
 * pglite-socket 0.2.17 queues protocol messages one by one, so under concurrency the
 * Parse/Bind/Execute of one connection interleave with another's and PGlite (one session)
 * answers "unnamed prepared statement does not exist". Measured with 8 concurrent sign-ins.
 * This keeps a connection's extended-query sequence together until its Sync, exactly as the
 * library already does for open transactions.
 */
export function keepExtendedQueriesTogether(server: object, db: { isInTransaction(): boolean; runExclusive<T>(fn: () => Promise<T>): Promise<T>; execProtocolRawStream(m: Uint8Array, o: { onRawData(d: Uint8Array): void }): Promise<unknown> }) {
  const q = (server as { queryQueue: QueryQueue }).queryQueue;
  let midSequence = false;
  q.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    while (this.queue.length > 0) {
      let item: QueuedMessage | undefined;
      if ((midSequence || db.isInTransaction()) && this.lastHandlerId !== null) {
        const at = this.queue.findIndex((m) => m.handlerId === this.lastHandlerId);
        if (at === -1) break; // wait for the same connection's next message
        item = this.queue.splice(at, 1)[0];
      } else {
        item = this.queue.shift()!;
      }
      let bytes = 0;
      try {
        await db.runExclusive(() => db.execProtocolRawStream(item!.message, { onRawData: (d) => { bytes += d.length; item!.onData(d); } }));
      } catch (e) {
        midSequence = false;
        item.reject(e);
        this.processing = false;
        return;
      }
      midSequence = SEQUENCE_CONTINUES.has(item.message[0]);
      this.lastHandlerId = item.handlerId;
      item.resolve(bytes);
    }
    this.processing = false;
  };
  const clear = q.clearTransactionIfNeeded.bind(q);
  q.clearTransactionIfNeeded = async (handlerId: number) => {
    if (q.lastHandlerId === handlerId) midSequence = false;
    await clear(handlerId);
    await q.processQueue();
  };
}
