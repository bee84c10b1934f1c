// `npm run dev`: the API in watch mode and the Vite dev server in front of it.
// - `tsc -w` on packages/engine, packages/contracts (then its schemas.json) and the backend, as
//   `npm run build` compiles them; each finished compile restarts the API (debounced), which runs as
//   `npm start` runs it: the pinned Node, the flags of backend/src/node-flags.ts, backend/dist/main.js,
//   the environment as given (no DATABASE_URL: embedded PostgreSQL in DATA_DIR, default ./data).
// - Vite (frontend/vite.config.ts) with hot reload, its /api proxy pointed at this API.
// PORT sets the API's port (default 3000, or a free one if 3000 is taken). Ctrl-C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
// The Node `npm start` runs: the `node` devDependency (Node 22) first on the PATH of npm scripts.
const node = existsSync(join(bin, 'node')) ? join(bin, 'node') : process.execPath;
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
const log = (line) => process.stdout.write(`[dev] ${line}\n`);

const projects = [
  { name: 'engine', dir: 'packages/engine' },
  // schemas.json (the OpenAPI response shapes) is generated from the contracts after each compile.
  { name: 'contracts', dir: 'packages/contracts', after: 'packages/contracts/scripts/schemas.mjs' },
  { name: 'backend', dir: 'backend' },
];

/** The newest modification time of the files under a folder (0 when there is none). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) time = Math.max(time, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return time;
}
const fresh = (project) => newest(join(root, project.dir, 'dist')) > newest(join(root, project.dir, 'src'));

// The backend compiles against the packages' declarations: build them first when missing or older
// than their sources, so that the three watchers start from a consistent dist.
if (projects.some((p) => p.name !== 'backend' && !fresh(p))) {
  log('building the packages first (npm run build:packages)');
  const built = spawnSync('npm', ['run', 'build:packages', '--silent'], { cwd: root, env, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const schemas = join(root, 'packages/contracts/dist/schemas.json');
const schemasFresh = existsSync(schemas) && statSync(schemas).mtimeMs > newest(join(root, 'packages/contracts/src'));

async function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = createNetServer().once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}
async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer().once('error', reject);
    probe.listen(0, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
let port = Number(process.env.PORT || 3000);
if (!process.env.PORT && !(await portIsFree(port))) {
  port = await freePort();
  log(`port 3000 is taken: the API uses ${port}`);
}
const apiUrl = `http://localhost:${port}`;

let stopping = false;
let api; // the running API process
let apiExited; // resolves when it has exited
let pending; // debounce timer of the next (re)start
let starts = 0;
let viteUrl = '';
const children = new Set();

function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

async function stopApi() {
  if (!api) return;
  const exited = apiExited;
  api.kill('SIGTERM'); // main.ts closes the server and the database, then exits
  await exited;
}

async function startApi() {
  await stopApi();
  if (stopping) return;
  const { API_NODE_FLAGS } = createRequire(import.meta.url)(join(root, 'backend/dist/node-flags.js'));
  const n = ++starts;
  log(n === 1 ? `starting the API on ${apiUrl}` : 'restarting the API (compiled a change)');
  // Its own process group: Ctrl-C reaches it once, from shutdown(), not also from the terminal.
  const child = track(
    spawn(node, [...API_NODE_FLAGS, 'backend/dist/main.js'], {
      cwd: root,
      env: { ...env, PORT: String(port) },
      stdio: 'inherit',
      detached: true,
    }),
  );
  api = child;
  apiExited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      if (api === child) api = undefined;
      if (!stopping && !signal && code !== 0) log(`the API exited with code ${code}; waiting for a change to restart it`);
      resolve();
    }),
  );
  void reportReady(child, n);
}

/** Says when the API answers, so that a restart's cost is visible. */
async function reportReady(child, n) {
  const started = Date.now();
  for (let ready = false; !ready && api === child && child.exitCode === null;) {
    try {
      ready = (await fetch(`${apiUrl}/api/health`)).ok;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  if (api === child && child.exitCode === null) {
    log(`API ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${apiUrl}/api (docs ${apiUrl}/api/docs)`);
    if (n === 1) log(`app (hot reload, /api proxied to the API): ${viteUrl}`);
  }
}

function runScript(script, cwd) {
  return new Promise((resolve) => spawn(node, [join(root, script)], { cwd, env, stdio: 'inherit' }).once('exit', resolve));
}

// Restarts run one after the other (a stop waits for the exit), after 400 ms without a new compile.
let restarts = Promise.resolve();
function scheduleRestart() {
  clearTimeout(pending);
  pending = setTimeout(() => (restarts = restarts.then(startApi)), 400);
}

// Vite in this process, from the frontend's own config; only the proxy target is ours.
const { createServer } = await import('vite');
const vite = await createServer({
  configFile: join(root, 'frontend', 'vite.config.ts'),
  root: join(root, 'frontend'),
  server: { proxy: { '/api': { target: apiUrl, changeOrigin: false } } },
});
await vite.listen();
viteUrl = vite.resolvedUrls?.local[0] ?? `http://localhost:${vite.config.server.port}/`;
log(`Vite dev server: ${viteUrl} (the API on ${apiUrl} once compiled; Ctrl-C stops both)`);

// One `tsc -w` per project. The first round of each is the initial compile; the API starts once all
// three have finished it, and restarts after every later one.
const firstRoundDone = new Set();
let afterRuns = Promise.resolve();
for (const project of projects) {
  const dir = join(root, project.dir);
  const info = join(root, 'node_modules', '.cache', 'tsc', `dev-${project.name}.tsbuildinfo`);
  // --incremental skips re-emitting unchanged files (which would set off the next watcher), but it
  // cannot know that dist was deleted: then start over.
  if (!existsSync(join(dir, 'dist'))) rmSync(info, { force: true });
  let round = 0;
  const args = [tsc, '-w', '-p', join(dir, 'tsconfig.build.json'), '--preserveWatchOutput', '--incremental', '--tsBuildInfoFile', info];
  const child = track(spawn(node, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] }));
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) {
      if (!line.trim()) continue;
      process.stdout.write(`[tsc ${project.name}] ${line}\n`);
      if (!/Watching for file changes/.test(line)) continue;
      // A compile finished (with or without errors: tsc emits either way).
      round++;
      if (project.after && !(round === 1 && schemasFresh)) afterRuns = afterRuns.then(() => runScript(project.after, dir));
      void afterRuns.then(() => {
        firstRoundDone.add(project.name);
        if (firstRoundDone.size === projects.length) scheduleRestart();
      });
    }
  });
  child.on('exit', (code) => {
    if (!stopping) {
      log(`tsc -w for ${project.name} exited (${code}); stopping`);
      void shutdown(1);
    }
  });
}

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  clearTimeout(pending);
  log('stopping');
  await vite.close().catch(() => undefined);
  for (const child of children) if (child !== api) child.kill('SIGTERM');
  await stopApi();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
// Never leave the API behind in its own process group.
process.on('exit', () => api?.kill('SIGTERM'));
