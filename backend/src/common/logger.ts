import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { redactSecrets } from './redact';
import { requestContext } from './request-context';

type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Where log lines go: info and debug to stdout, warn and error to stderr (as before pino). */
interface LogOutput {
  out: DestinationStream;
  err: DestinationStream;
  flush(): void;
}

// In-process default (tests, CLI): through process.stdout/stderr.write, so a test can read the lines.
const inProcess: LogOutput = {
  out: { write: (line: string) => process.stdout.write(line) },
  err: { write: (line: string) => process.stderr.write(line) },
  flush: () => undefined,
};
let output: LogOutput = inProcess;

/** `HH:MM:SS level [context] message (request id)` for a person at a terminal. */
function humanLine(line: string): string {
  const { time, level, context, request_id, msg, stack } = JSON.parse(line) as Record<string, unknown>;
  const clock = typeof time === 'string' ? time.slice(11, 19) : '';
  const text = typeof msg === 'string' ? msg : JSON.stringify(msg);
  return `${clock} ${String(level).padEnd(5)} ${context ? `[${String(context)}] ` : ''}${text}${request_id ? ` (${String(request_id)})` : ''}${stack ? `\n${String(stack)}` : ''}\n`;
}

/**
 * For the long-running processes (main.ts, worker.ts): JSON lines written asynchronously
 * (sonic-boom, sync: false) to stdout and stderr; human lines when stdout is a terminal.
 * Call before the first AppLogger is made, and `flushLogs()` before `process.exit`.
 */
export function useProcessLogOutput(): void {
  if (process.stdout.isTTY) {
    output = {
      out: { write: (line: string) => process.stdout.write(humanLine(line)) },
      err: { write: (line: string) => process.stderr.write(humanLine(line)) },
      flush: () => undefined,
    };
    return;
  }
  const out = pino.destination({ dest: 1, sync: false });
  const err = pino.destination({ dest: 2, sync: false });
  output = {
    out,
    err,
    flush: () => {
      out.flushSync();
      err.flushSync();
    },
  };
}

/** Writes out whatever the asynchronous log streams still hold (before `process.exit`). */
export function flushLogs(): void {
  try {
    output.flush();
  } catch {
    // A stream not yet open or already closed has nothing to flush.
  }
}

const SECRET_FIELDS = ['authorization', 'password', 'token', 'fhirAuthorization', 'headers.authorization', 'headers.cookie'];

function createPino(level: Level): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const store = requestContext.getStore();
        return store ? { request_id: store.requestId } : {};
      },
      // Fields that are credentials by name, should anyone ever pass one as an extra.
      redact: { paths: SECRET_FIELDS, censor: '[redacted]' },
      // Redacted last, over the whole serialized line: messages, stacks and extras alike.
      hooks: { streamWrite: redactSecrets },
    },
    pino.multistream(
      [
        { level: 'debug', stream: output.out },
        { level: 'warn', stream: output.err },
      ],
      { dedupe: true },
    ),
  );
}

/** One JSON line per event (pino), with the request id when there is one. Never log bodies: they hold secrets. */
export class AppLogger implements LoggerService {
  private readonly pino: Logger;

  constructor(level: Level = 'info') {
    this.pino = createPino(level);
  }

  private write(level: Exclude<Level, 'silent'>, message: unknown, context?: string, extra?: Record<string, unknown>) {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields = { ...(context ? { context } : {}), ...extra };
    if (message instanceof Error) this.pino[level](fields, message.message);
    else if (typeof message === 'string') this.pino[level](fields, message);
    else this.pino[level](fields, JSON.stringify(message));
  }

  /** Whether info lines are written: lets a per-request line skip building its text when they are not. */
  get infoEnabled(): boolean {
    return this.pino.isLevelEnabled('info');
  }

  log(message: unknown, context?: string) {
    this.write('info', message, context);
  }
  info(message: unknown, context?: string, extra?: Record<string, unknown>) {
    this.write('info', message, context, extra);
  }
  warn(message: unknown, context?: string) {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string) {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string) {
    this.write('debug', message, context);
  }
  error(message: unknown, traceOrContext?: string, context?: string) {
    // Stacks go to the log only, never to a response.
    this.write('error', message, context ?? traceOrContext, message instanceof Error ? { stack: message.stack } : undefined);
  }
}
