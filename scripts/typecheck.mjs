// `npm run typecheck`: every TypeScript project of the repo, one after the other, incrementally
// (build info under node_modules/.cache, so a second run re-checks only what changed).
// The backend and test/ compile against the packages' dist: `npm run build:packages` runs first.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const projects = ['packages/contracts', 'packages/engine', 'backend', 'frontend', 'test', 'benches'];
const tsc = join('node_modules', '.bin', 'tsc');
let failed = 0;
for (const project of projects) {
  const started = Date.now();
  const info = join('node_modules', '.cache', 'tsc', `${project.replace('/', '-')}.tsbuildinfo`);
  const run = spawnSync(tsc, ['-p', join(project, 'tsconfig.json'), '--noEmit', '--incremental', '--tsBuildInfoFile', info], {
    stdio: 'inherit',
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`typecheck ${project}: ${run.status === 0 ? 'ok' : 'FAILED'} (${seconds} s)`);
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
