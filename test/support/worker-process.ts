import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once the worker consumes the queue; rejects if it exits first. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `npm run worker` as a real child process, from the TypeScript sources. */
export function spawnWorker(env: Record<string, string | undefined>): WorkerProcess {
  const child = spawn(process.execPath, [join(__dirname, 'worker-main.cjs')], {
    // Only what the worker needs: no inherited DATABASE_URL or REDIS_URL by accident.
    env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let readyResolve!: () => void;
  let readyReject!: (e: Error) => void;
  const ready = new Promise<void>((res, rej) => {
    readyResolve = res;
    readyReject = rej;
  });
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('Worker ready')) readyResolve();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      readyReject(new Error(`worker exited (${code}) before it was ready:\n${out}`));
      resolve(code);
    }),
  );
  ready.catch(() => undefined);
  return {
    child,
    ready,
    exited,
    output: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
