import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { API_NODE_FLAGS } from '../../backend/src/node-flags';

export interface ApiProcess {
  child: ChildProcess;
  /** The URL it serves, once it listens; rejects if it exits first. */
  ready: Promise<string>;
  exited: Promise<number | null>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `npm start` as a real child process (with its Node flags), from the TypeScript sources. `readyLine` is what it
 * prints once serving: one process names its URL; a cluster primary (API_PROCESSES) counts its
 * processes.
 */
export function spawnApi(env: Record<string, string | undefined>, readyLine = /running at (http:\/\/\S+)/): ApiProcess {
  const child = spawn(process.execPath, [...API_NODE_FLAGS, join(__dirname, 'app-main.cjs')], {
    // Only what the process needs: no inherited DATABASE_URL or REDIS_URL by accident.
    // HTTP_ADAPTER is passed on, so `HTTP_ADAPTER=express npm run test:one` runs these processes on Express too.
    env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', HTTP_ADAPTER: process.env.HTTP_ADAPTER, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let onReady!: (url: string) => void;
  let onFail!: (e: Error) => void;
  const ready = new Promise<string>((res, rej) => ((onReady = res), (onFail = rej)));
  ready.catch(() => undefined);
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    const m = readyLine.exec(out);
    if (m) onReady(m[1] ?? m[0]);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      onFail(new Error(`API process exited (${code}) before it was ready:\n${out}`));
      resolve(code);
    }),
  );
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
