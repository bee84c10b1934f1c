import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { PASSWORD } from '../support/factories';

// Issue 10, item 1: two processes on one embedded DATA_DIR lost confirmed writes. The second
// must exit at once naming the holder's PID and touch nothing; the first keeps every write.
jest.setTimeout(180_000);

interface AppProcess {
  child: ChildProcess;
  ready: Promise<string>;
  exited: Promise<number | null>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function spawnApp(dataDir: string, port: number): AppProcess {
  const child = spawn(process.execPath, [join(__dirname, '..', 'support', 'app-main.cjs')], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATA_DIR: dataDir, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let onReady!: (url: string) => void;
  let onFail!: (e: Error) => void;
  const ready = new Promise<string>((res, rej) => ((onReady = res), (onFail = rej)));
  ready.catch(() => undefined);
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    const m = /running at (http:\/\/\S+)/.exec(out);
    if (m) onReady(m[1]);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      onFail(new Error(`exited (${code}) before ready:\n${out}`));
      resolve(code);
    }),
  );
  return {
    child,
    ready,
    exited,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Every file under DATA_DIR with its size and modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else out[p] = `${s.size}:${s.mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', () => resolve(true));
  });

/** A port nobody holds now: the kernel's pick for a listener we close at once (a random one collided). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

let dataDir: string;
const running: AppProcess[] = [];
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'cds-lock-'));
});
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL')));
  rmSync(dataDir, { recursive: true, force: true });
});

const signUp = (url: string, i: number) =>
  request(url)
    .post('/api/auth/signup')
    .send({ email: `lock.${i}@clinic.test`, password: PASSWORD, data: { first_name: 'Lock', last_name: `User${i}` } });

it('a second process on the same DATA_DIR exits at once naming the holder, and no confirmed sign-up is lost', async () => {
  const first = spawnApp(dataDir, await freePort());
  running.push(first);
  const url = await first.ready;

  const before = snapshot(dataDir);
  const secondPort = await freePort();
  const started = Date.now();
  const second = spawnApp(dataDir, secondPort);
  running.push(second);
  const code = await second.exited;
  const tookMs = Date.now() - started;
  expect(code).toBe(1);
  expect(second.output()).toContain(`PID ${first.child.pid}`);
  expect(second.output()).not.toContain('running at');
  expect(await portFree(secondPort)).toBe(true);
  // It touched nothing: no file written, created or changed under DATA_DIR.
  expect(snapshot(dataDir)).toEqual(before);
  // "At once": it never opens the database (a reopen alone takes about a second).
  expect(tookMs).toBeLessThan(30_000);

  for (let i = 0; i < 5; i++) expect((await signUp(url, i)).status).toBe(201);
  expect(await first.stop()).toBe(0);
  expect(existsSync(join(dataDir, 'cds.lock'))).toBe(false);

  const again = spawnApp(dataDir, await freePort());
  running.push(again);
  const url2 = await again.ready;
  for (let i = 0; i < 5; i++) {
    const res = await request(url2)
      .post('/api/auth/token?grant_type=password')
      .send({ email: `lock.${i}@clinic.test`, password: PASSWORD });
    expect(res.status).toBe(200);
  }

  // A holder killed with -9 leaves its lock behind; the next start takes it over.
  await again.stop('SIGKILL');
  expect(Number(readFileSync(join(dataDir, 'cds.lock'), 'utf8'))).toBe(again.child.pid);
  const afterCrash = spawnApp(dataDir, await freePort());
  running.push(afterCrash);
  const url3 = await afterCrash.ready;
  expect(
    (await request(url3).post('/api/auth/token?grant_type=password').send({ email: 'lock.4@clinic.test', password: PASSWORD })).status,
  ).toBe(200);
  expect(Number(readFileSync(join(dataDir, 'cds.lock'), 'utf8'))).toBe(afterCrash.child.pid);
  await afterCrash.stop();
});

it('a lock file naming a dead process, or left empty by a crash, does not block a start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cds-stale-'));
  try {
    const { lockDataDir } = await import('../../backend/src/database/embedded');
    writeFileSync(join(dir, 'cds.lock'), '999999\n'); // beyond pid_max on Linux: never alive
    const lock = lockDataDir(dir);
    expect(Number(readFileSync(join(dir, 'cds.lock'), 'utf8'))).toBe(process.pid);
    // Held by a live process (this one, from the test's point of view another holder is a live PID).
    const child = spawn('sleep', ['30']);
    writeFileSync(join(dir, 'cds.lock'), `${child.pid}\n`);
    expect(() => lockDataDir(dir)).toThrow(`PID ${child.pid}`);
    child.kill();
    await new Promise((r) => child.on('exit', r));
    writeFileSync(join(dir, 'cds.lock'), '');
    lockDataDir(dir).release();
    expect(existsSync(join(dir, 'cds.lock'))).toBe(false);
    lock.release();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
