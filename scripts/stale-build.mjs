// Whether the built app (packages, backend, frontend) is older than its sources: the browser suites drive
// the build, so test:one and the embedded browser pass build first only when it is.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The newest modification time of a file, or of the files under a folder (0 when there is none). */
function newest(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  if (!statSync(full).isDirectory()) return statSync(full).mtimeMs;
  let time = 0;
  for (const entry of readdirSync(full, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) time = Math.max(time, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return time;
}

/** Why the built app under `root` is out of date, or undefined when it is not. */
export function staleBuild(root) {
  const packages = ['packages/engine/src', 'packages/contracts/src'];
  const builds = [
    // tsc writes what changed; Vite rewrites the whole dist, which compiles the packages from source.
    { output: 'packages/engine/dist', sources: ['packages/engine/src'] },
    { output: 'packages/contracts/dist', sources: ['packages/contracts/src'] },
    { output: 'backend/dist', sources: ['backend/src'] },
    {
      output: 'frontend/dist',
      sources: ['frontend/src', 'frontend/public', 'frontend/index.html', 'frontend/vite.config.ts', ...packages],
    },
  ];
  for (const { output, sources } of builds) {
    const built = newest(root, output);
    if (!built) return `${output} is missing`;
    const changed = sources.find((source) => newest(root, source) > built);
    if (changed) return `${changed} changed since ${output} was built`;
  }
  return undefined;
}

// `node scripts/stale-build.mjs`: `npm run build` when the built app is missing or older than its sources.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const why = staleBuild(root);
  if (why) {
    console.error(`building first (${why})`);
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exit(build.status ?? 1);
  }
}
