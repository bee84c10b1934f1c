import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_NODE_FLAGS } from '../../backend/src/node-flags';
import { spawnApi } from '../support/api-process';
import { createTestDatabase } from '../support/app';
import { waitFor } from '../support/polling';
import { dropQueuePrefix, uniqueQueuePrefix } from '../support/queue';

/** Issue 13: `npm start` with API_PROCESSES runs that many processes on one port (node:cluster). */
jest.setTimeout(120_000);

const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
};

it('refuses API_PROCESSES > 1 on the embedded database before starting anything', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cds-cluster-'));
  try {
    const api = spawnApi({ DATA_DIR: dir, PORT: '0', API_PROCESSES: '2', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(await api.exited).toBe(1);
    expect(api.output()).toContain('API_PROCESSES: more than 1 needs DATABASE_URL');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("puts the request's id on log lines written deep inside it, with npm start's Node flags (AsyncLocalStorage on async context frames)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cds-flags-'));
  const api = spawnApi({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info', JWT_SECRET: randomBytes(32).toString('hex') });
  try {
    const url = (await api.ready).replace('localhost', '127.0.0.1');
    // The first account's log line is written after the database has answered several awaits.
    const res = await fetch(`${url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-first-account' },
      body: JSON.stringify({ email: 'first.admin@clinic.test', password: 'correct horse battery staple' }),
    });
    expect(res.status).toBe(201);
    await waitFor(() => api.output().includes('became super_admin'), { what: 'the first-account log line' });
    const line = api
      .output()
      .split('\n')
      .find((l) => l.includes('became super_admin'))!;
    expect(JSON.parse(line)).toMatchObject({ request_id: 'trace-first-account', context: 'Auth' });
  } finally {
    await api.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

(process.env.DATABASE_URL && process.env.REDIS_URL ? it : it.skip)(
  'serves from API_PROCESSES processes, replaces one that dies, and stops them all on SIGTERM',
  async () => {
    const database = await createTestDatabase();
    const prefix = uniqueQueuePrefix();
    const dir = mkdtempSync(join(tmpdir(), 'cds-cluster-'));
    const api = spawnApi(
      {
        DATABASE_URL: database.url,
        REDIS_URL: process.env.REDIS_URL,
        QUEUE_PREFIX: prefix,
        JWT_SECRET: randomBytes(32).toString('hex'),
        DATA_DIR: dir,
        PORT: '0',
        API_PROCESSES: '2',
      },
      /2 API processes ready/,
    );
    try {
      await api.ready;
      await waitFor(() => (api.output().match(/running at/g) ?? []).length === 2, { what: 'both processes to report' });
      // Port 0: the primary picks one port and both processes share it.
      const urls = [...api.output().matchAll(/running at (http:\/\/\S+)/g)].map((m) => m[1].replace('localhost', '127.0.0.1'));
      expect(urls).toHaveLength(2);
      expect(new Set(urls).size).toBe(1);
      const url = urls[0];
      const first = childrenOf(api.child.pid!);
      expect(first).toHaveLength(2);
      // node:cluster starts each API process with the primary's Node flags (npm start's).
      for (const pid of first)
        expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining([...API_NODE_FLAGS]));
      for (let i = 0; i < 4; i++) expect((await fetch(`${url}/api/health`)).status).toBe(200);

      process.kill(first[0], 'SIGKILL');
      await waitFor(() => api.output().includes('starting a replacement'), { what: 'the primary to notice' });
      await waitFor(() => (api.output().match(/running at/g) ?? []).length === 3, { timeoutMs: 60_000, what: 'the replacement to listen' });
      const second = childrenOf(api.child.pid!);
      expect(second).toHaveLength(2);
      expect(second).toContain(first[1]);
      expect(second).not.toContain(first[0]);
      for (let i = 0; i < 4; i++) expect((await fetch(`${url}/api/health`)).status).toBe(200);

      expect(await api.stop('SIGTERM')).toBe(0);
      for (const pid of second) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      await api.stop('SIGKILL');
      await database.drop();
      await dropQueuePrefix(prefix);
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
