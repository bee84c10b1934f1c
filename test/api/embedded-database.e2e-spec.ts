import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client, Pool } from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../backend/src/database/embedded';
import { postgresTarget } from '../support/tcp-proxy';

/**
 * Opens a PostgreSQL session on `target` as user postgres with no password, with nothing but Node's
 * own modules (so another account can run it), and prints what happened.
 */
const PROBE = `
const net = require('node:net');
const s = net.connect(JSON.parse(process.argv[1]));
const params = Buffer.from('user\\0postgres\\0database\\0postgres\\0\\0');
const head = Buffer.alloc(8);
head.writeInt32BE(8 + params.length, 0);
head.writeInt32BE(196608, 4);
s.on('connect', () => s.write(Buffer.concat([head, params])));
s.on('data', (d) => {
  const kind = String.fromCharCode(d[0]);
  console.log(kind === 'R' && d.readInt32BE(5) === 0 ? 'signed in' : kind === 'R' ? 'asked for a password' : 'refused by the server');
  s.destroy();
});
s.on('error', (e) => console.log('refused ' + e.code));
`;
// Asynchronous: the database answering it runs in this process.
const probe = (target: object, account?: { uid: number; gid: number }) =>
  new Promise<string>((resolve) =>
    execFile(process.execPath, ['-e', PROBE, JSON.stringify(target)], { cwd: '/', env: {}, timeout: 20_000, ...account }, (_e, stdout) =>
      resolve(String(stdout).trim()),
    ),
  );

/** The embedded database (PGlite behind pglite-socket) must behave like a server under concurrency. */
describe('embedded PostgreSQL under concurrency', () => {
  let db: EmbeddedDatabase;
  let pool: Pool;
  beforeAll(async () => {
    db = await startEmbeddedPostgres(undefined);
    pool = new Pool({ connectionString: db.url, max: 10 });
    await pool.query('CREATE TABLE t (id serial PRIMARY KEY, v int NOT NULL)');
  });
  afterAll(async () => {
    await pool?.end();
    await db?.close();
  });

  it('interleaved parameterised queries from 10 connections all succeed with their own results', async () => {
    // Different statement texts: an interleaved Parse from another connection would replace this one's.
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        i % 2
          ? pool.query('SELECT $1::int * 2 AS doubled, $2::text AS tag', [i, `q${i}`])
          : pool.query('SELECT $1::text AS tag, $2::int + 1 AS next', [`q${i}`, i]),
      ),
    );
    results.forEach((r, i) => expect(r.rows[0]).toEqual(i % 2 ? { doubled: i * 2, tag: `q${i}` } : { tag: `q${i}`, next: i + 1 }));
  });

  it('concurrent transactions neither lose writes nor leak a rollback', async () => {
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          await c.query('INSERT INTO t (v) VALUES ($1)', [i]);
          await c.query(i % 4 === 0 ? 'ROLLBACK' : 'COMMIT');
        } finally {
          c.release();
        }
      }),
    );
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM t');
    expect(rows[0].n).toBe(30);
  });
});

describe('the app in embedded mode under concurrent sign-ins', () => {
  it('answers every one of 24 simultaneous sign-ins (no interleaved protocol messages)', async () => {
    const { startRuntime } = await import('../../backend/src/runtime');
    const { loadConfig } = await import('../../backend/src/config/app-config');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const dir = mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'cds-emb-'));
    const runtime = await startRuntime(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dir,
        PORT: '0',
        LOG_LEVEL: 'silent',
        JWT_SECRET: 'x'.repeat(40),
        AUTH_RATE_LIMIT_PER_EMAIL: '1000',
        AUTH_RATE_LIMIT_PER_IP: '1000',
      }),
      { inMemory: true },
    );
    try {
      const creds = { email: 'concurrent@clinic.test', password: 'correct horse battery staple' };
      const post = (path: string) =>
        fetch(`${runtime.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(creds) });
      expect((await post('/api/auth/signup')).status).toBe(201);
      const statuses = await Promise.all(
        Array.from({ length: 24 }, async () => (await post('/api/auth/token?grant_type=password')).status),
      );
      expect(statuses).toEqual(Array(24).fill(200));
    } finally {
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Issue 24, item 1: PGlite has no passwords, so whoever reaches its socket is its superuser (users'
// password hashes included). Only the account that runs the product may reach it.
describe('the embedded database is reachable only by the account that runs it', () => {
  let dir: string;
  let db: EmbeddedDatabase;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cds-emb-owner-'));
    db = await startEmbeddedPostgres(join(dir, 'pg'));
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on no TCP port, only on a socket inside DATA_DIR in a directory of its own (0700) that is 0600', () => {
    const target = postgresTarget(db.url) as { path?: string };
    expect(target.path).toBeDefined();
    expect(dirname(dirname(target.path!))).toBe(dir);
    const socketDir = statSync(dirname(target.path!));
    const socket = statSync(target.path!);
    expect({ dir: socketDir.mode & 0o777, socket: socket.mode & 0o777 }).toEqual({ dir: 0o700, socket: 0o600 });
    expect([socketDir.uid, socket.uid]).toEqual([process.getuid!(), process.getuid!()]);
  });

  it('its owner signs in (the pg driver with the URL it hands out)', async () => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      expect((await client.query('SELECT current_user AS u')).rows[0].u).toBe('postgres');
    } finally {
      await client.end();
    }
    expect(await probe(postgresTarget(db.url))).toBe('signed in');
  });

  // Switching accounts needs root (CI runs as root); the checks above hold for any account.
  (process.getuid?.() === 0 ? it : it.skip)('another local account (nobody) is refused before it can say a word', async () => {
    expect(await probe(postgresTarget(db.url), { uid: 65534, gid: 65534 })).toBe('refused EACCES');
  });

  it('a socket directory left by a killed process is removed at the next start; a live one is kept', async () => {
    const dead = mkdtempSync(join(dir, '.pg-socket-'));
    const socket = join(dead, '.s.PGSQL.5432');
    const child = spawn(process.execPath, [
      '-e',
      "require('node:net').createServer().listen(process.argv[1], () => console.log('up'))",
      socket,
    ]);
    await once(child.stdout, 'data');
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(statSync(socket).isSocket()).toBe(true);
    const live = dirname((postgresTarget(db.url) as { path: string }).path);
    const next = await startEmbeddedPostgres(join(dir, 'pg2'));
    try {
      expect({ dead: existsSync(dead), live: existsSync(live) }).toEqual({ dead: false, live: true });
    } finally {
      await next.close();
    }
  });

  it('closing removes the socket and its directory', async () => {
    const other = await startEmbeddedPostgres(undefined);
    const { path } = postgresTarget(other.url) as { path: string };
    expect(statSync(path).isSocket()).toBe(true);
    await other.close();
    expect(() => statSync(dirname(path))).toThrow(/ENOENT/);
  });
});
