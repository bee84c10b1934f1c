import {
  chmodSync,
  closeSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

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
 *
 * PGlite has no authentication: whoever reaches its socket is the superuser. So it listens on a
 * Unix socket, never on TCP, in a fresh directory only this account can enter (0700, next to the
 * data directory, else in the temp directory), and the socket itself is 0600: another local account
 * cannot connect, and no port is open.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined, poolSize = 10): Promise<EmbeddedDatabase> {
  const { PGlite } = await importEsm<typeof import('@electric-sql/pglite')>('@electric-sql/pglite');
  const { PGLiteSocketServer } = await importEsm<typeof import('@electric-sql/pglite-socket')>('@electric-sql/pglite-socket');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const socketDir = privateSocketDir(dataDir);
  await removeDeadSocketDirs(dirname(socketDir), socketDir);
  const socketPath = join(socketDir, SOCKET_FILE);
  let db: Awaited<ReturnType<typeof PGlite.create>> | undefined;
  try {
    db = await PGlite.create(dataDir ? { dataDir } : {});
    // Every pooled connection needs a slot, or the pool dies with "Connection terminated unexpectedly".
    const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: poolSize + 2 });
    keepExtendedQueriesTogether(server, db);
    await server.start();
    chmodSync(socketPath, 0o600);
    const opened = db;
    return {
      // libpq's convention, which pg follows: the host parameter (it wins over the URL's host) is the
      // socket's directory, and the socket is .s.PGSQL.<port> in it.
      url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`,
      async close() {
        try {
          await server.stop();
          await opened.close();
        } finally {
          rmSync(socketDir, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    await db?.close().catch(() => undefined);
    rmSync(socketDir, { recursive: true, force: true });
    throw e;
  }
}

/** pg connects to `${host}/.s.PGSQL.${port}`, the port defaulting to 5432. */
const SOCKET_FILE = '.s.PGSQL.5432';
// sun_path holds 108 bytes with its terminating NUL.
const MAX_SOCKET_PATH = 107;

/**
 * A new directory that only this account can enter (mkdtemp creates it 0700 and never reuses a name):
 * beside the data directory (so inside DATA_DIR), or in the temp directory when that path would be too
 * long for a socket or there is no data directory.
 */
function privateSocketDir(dataDir: string | undefined): string {
  const suffix = `/.pg-socket-XXXXXX/${SOCKET_FILE}`.length;
  const parent = dataDir && dirname(dataDir).length + suffix <= MAX_SOCKET_PATH ? dirname(dataDir) : tmpdir();
  const dir = mkdtempSync(join(parent, SOCKET_DIR_PREFIX));
  chmodSync(dir, 0o700);
  return dir;
}

const SOCKET_DIR_PREFIX = '.pg-socket-';

/**
 * Socket directories left by a process that did not close its database (kill -9, the TypeORM CLI)
 * are removed: ours, with a socket that refuses connections. One without a socket yet (a process
 * still opening PGlite) or that answers (another process's, or `npm run cli` beside `npm start`) is kept.
 */
async function removeDeadSocketDirs(parent: string, own: string): Promise<void> {
  const dirs = readdirSync(parent, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.startsWith(SOCKET_DIR_PREFIX))
    .map((e) => join(parent, e.name))
    .filter((dir) => dir !== own && ownedByUs(dir));
  await Promise.all(
    dirs.map(async (dir) => {
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect(join(dir, SOCKET_FILE));
        s.once('connect', () => {
          s.destroy();
          resolve(false);
        });
        s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
      });
      if (refused) rmSync(dir, { recursive: true, force: true });
    }),
  );
}

function ownedByUs(path: string): boolean {
  try {
    return lstatSync(path).uid === process.getuid?.();
  } catch {
    return false;
  }
}

export const LOCK_FILE = 'cds.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly holderPid: number,
    readonly dataDir: string,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another Diabetes CDS process (PID ${holderPid}). ` +
        `Stop that process, or choose another DATA_DIR. If no such process exists, delete ${join(dataDir, LOCK_FILE)}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

/**
 * PGlite has no lock of its own: two processes on one data directory both open it and
 * silently overwrite each other's writes (confirmed sign-ups vanished after a restart).
 * Takes an exclusive lock file holding our PID before anything opens the directory. A second
 * process gets DataDirLockedError naming the holder and has written nothing. A lock whose
 * holder is dead (kill -9, power loss) is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // O_EXCL: exactly one process creates the file.
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return { file, release: () => releaseLock(file) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (holder === undefined) continue; // vanished, or its holder is still writing the PID: try again
    // Our own PID in the file can only be a leftover (e.g. PID 1 in a restarted container).
    if (holder !== process.pid && isAlive(holder)) throw new DataDirLockedError(holder, dataDir);
    takeOverStale(file, holder);
  }
  throw new Error(`Could not lock DATA_DIR ${dataDir}: ${file} keeps changing`);
}

/**
 * Moves the stale lock aside under a name of our own (rename is atomic, so of two processes
 * clearing the same stale lock only one moves it). If what we moved is no longer the stale
 * lock, a live process took the lock meanwhile: put it back.
 */
function takeOverStale(file: string, stalePid: number) {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  const moved = readHolder(aside);
  if (moved !== undefined && moved !== stalePid && moved !== process.pid && isAlive(moved)) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone else holds it now; the loop re-reads it and refuses.
    }
  }
  unlinkSync(aside);
}

function releaseLock(file: string) {
  try {
    if (readHolder(file) === process.pid) unlinkSync(file);
  } catch {
    // Already gone.
  }
}

function readHolder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    if (Number.isInteger(pid) && pid > 0) return pid;
  } catch {
    return undefined;
  }
  // Empty: the holder created the file and is about to write its PID.
  sleepMs(50);
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : 0;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleepMs(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Where the embedded database keeps its files inside DATA_DIR. */
export function embeddedDataDir(dataDir: string): string {
  return `${dataDir}/pg`;
}

const SEQUENCE_CONTINUES = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(n: number): void;
  reject(e: unknown): void;
  onData(d: Uint8Array): void;
}
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
export function keepExtendedQueriesTogether(
  server: object,
  db: {
    isInTransaction(): boolean;
    runExclusive<T>(fn: () => Promise<T>): Promise<T>;
    execProtocolRawStream(m: Uint8Array, o: { onRawData(d: Uint8Array): void }): Promise<unknown>;
  },
) {
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
        await db.runExclusive(() =>
          db.execProtocolRawStream(item!.message, {
            onRawData: (d) => {
              bytes += d.length;
              item!.onData(d);
            },
          }),
        );
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
