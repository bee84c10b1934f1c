// Embedded-mode smoke: `npm start` with DATABASE_URL unset in a temporary DATA_DIR;
// sign up and in, restart, sign in again (the data survived), stop.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dataDir = mkdtempSync(join(tmpdir(), 'cds-smoke-'));
// A port the kernel says is free (a random one collided with other services here); kept for the restart.
const port = await new Promise((resolve, reject) => {
  const probe = createServer().once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const base = `http://127.0.0.1:${port}`;
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port) };
delete env.DATABASE_URL;
delete env.REDIS_URL;

function start() {
  const child = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.output = () => out;
  return child;
}

async function waitHealthy(child, ms) {
  const until = Date.now() + ms;
  const t0 = Date.now();
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}\n${child.output()}`);
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.status === 200) return Date.now() - t0;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not healthy after ${ms} ms\n${child.output()}`);
}

async function stop(child) {
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

async function post(path, body) {
  const r = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json().catch(() => null) };
}

const creds = { email: 'smoke@clinic.test', password: 'correct horse battery staple' };
let server = start();
try {
  const first = await waitHealthy(server, 180_000);
  if (!/running at http:\/\/localhost:\d+/.test(server.output()) || !/embedded PostgreSQL/.test(server.output())) {
    throw new Error(`start-up did not print the URL and mode:\n${server.output()}`);
  }
  const page = await fetch(`${base}/`);
  if (page.status !== 200 || !(await page.text()).includes('<div id="root">')) throw new Error('/ does not serve the web app');
  const up = await post('/api/auth/signup', creds);
  if (up.status !== 201 || up.body.user.role !== 'super_admin') throw new Error(`sign-up: ${up.status} ${JSON.stringify(up.body)}`);
  const inn = await post('/api/auth/token?grant_type=password', creds);
  if (inn.status !== 200) throw new Error(`sign-in: ${inn.status}`);
  await stop(server);
  server = start();
  const second = await waitHealthy(server, 60_000);
  const again = await post('/api/auth/token?grant_type=password', creds);
  if (again.status !== 200) throw new Error(`sign-in after restart: ${again.status} ${JSON.stringify(again.body)}`);
  const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${again.body.access_token}` } });
  if ((await me.json()).role !== 'super_admin') throw new Error('role lost across restart');
  console.log(`embedded smoke passed (healthy after ${first} ms incl. build, restart ${second} ms incl. build)`);
  console.log('1 passed, 0 failed');
} finally {
  if (server.exitCode === null) await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
