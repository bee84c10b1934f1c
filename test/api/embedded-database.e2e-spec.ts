import { Pool } from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../backend/src/database/embedded';

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
