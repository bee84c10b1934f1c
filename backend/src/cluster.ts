import cluster, { type Worker } from 'node:cluster';

/**
 * The primary of `npm start` with API_PROCESSES > 1: forks that many API processes sharing one
 * port (node:cluster hands out connections round-robin) and replaces one that dies once serving.
 * Everything they share lives in PostgreSQL and Redis (config refuses this mode without both).
 */
export function runPrimary(processes: number): void {
  const started = Date.now();
  let stopping = false;
  let exitCode = 0;
  let listening = 0;
  const ready = new Set<number>();

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.once('listening', () => {
      ready.add(worker.id);
      listening += 1;
      if (listening === processes)
        process.stdout.write(`${processes} API processes ready in ${Date.now() - started} ms (primary pid ${process.pid})\n`);
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    if (!ready.has(worker.id)) {
      // Failed during start-up (bad database URL, migrations): retrying would only loop.
      process.stderr.write(`API process ${worker.process.pid} failed to start (exit ${code ?? signal}); stopping\n`);
      void stop(1);
      return;
    }
    ready.delete(worker.id);
    process.stderr.write(`API process ${worker.process.pid} exited (${code ?? signal}); starting a replacement\n`);
    fork();
  });

  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    const force = setTimeout(() => process.exit(exitCode || 1), 15_000);
    force.unref();
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    if (workers.length === 0) process.exit(exitCode);
    // Each process closes HTTP, then its database pool (main.ts's own SIGTERM handler).
    for (const w of workers) w.process.kill('SIGTERM');
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      process.stdout.write(`${signal} received, stopping ${processes} API processes\n`);
      void stop(0);
    });

  for (let i = 0; i < processes; i++) fork();
}
