import type { LoggerService } from '@nestjs/common';
import { requestContext } from './request-context';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = keyof typeof LEVELS;

/** One JSON line per event, with the request id when there is one. Never log bodies: they hold secrets. */
export class AppLogger implements LoggerService {
  constructor(private readonly level: Level = 'info') {}

  private write(level: Exclude<Level, 'silent'>, message: unknown, context?: string, extra?: Record<string, unknown>) {
    if (LEVELS[level] < LEVELS[this.level]) return;
    const line = {
      time: new Date().toISOString(),
      level,
      ...(context ? { context } : {}),
      ...(requestContext.getStore() ? { request_id: requestContext.getStore()!.requestId } : {}),
      msg: message instanceof Error ? message.message : message,
      ...extra,
    };
    (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${JSON.stringify(line)}\n`);
  }

  log(message: unknown, context?: string) { this.write('info', message, context); }
  info(message: unknown, context?: string, extra?: Record<string, unknown>) { this.write('info', message, context, extra); }
  warn(message: unknown, context?: string) { this.write('warn', message, context); }
  debug(message: unknown, context?: string) { this.write('debug', message, context); }
  verbose(message: unknown, context?: string) { this.write('debug', message, context); }
  error(message: unknown, traceOrContext?: string, context?: string) {
    // Stacks go to the log only, never to a response.
    this.write('error', message, context ?? traceOrContext, message instanceof Error ? { stack: message.stack } : undefined);
  }
}
