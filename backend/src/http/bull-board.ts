import type { HttpServer } from '@nestjs/common';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';

/** What the dashboard's guard reads from a request: alike on Express and Fastify. */
export interface DashboardRequest {
  query: Record<string, unknown>;
  protocol: string;
  headers: { cookie?: string };
}

/** Runs before every dashboard request: answers it (refusal, redirect) or calls `next` to let Bull Board serve it. */
export type DashboardGuard = (req: DashboardRequest, res: unknown, next: () => void) => void;

/**
 * Mounts Bull Board under `path` behind `guard`, with the server adapter of the app's HTTP framework
 * (HTTP_ADAPTER): Express middleware, or a Fastify plugin whose onRequest hook is the guard.
 */
export function mountQueueDashboard(http: HttpServer, path: string, queue: Queue, boardTitle: string, guard: DashboardGuard): void {
  /* eslint-disable @typescript-eslint/no-require-imports -- each adapter loads only its own framework's package */
  if (http.getType() === 'fastify') {
    const { FastifyAdapter } = require('@bull-board/fastify') as typeof import('@bull-board/fastify');
    const serverAdapter = new FastifyAdapter().setBasePath(path);
    createBullBoard({ queues: [new BullMQAdapter(queue)], serverAdapter, options: { uiConfig: { boardTitle } } });
    void (http.getInstance() as FastifyInstance).register((scope, _opts, done) => {
      scope.addHook('onRequest', (req, reply, next) => guard(req as unknown as DashboardRequest, reply, () => next()));
      void scope.register(serverAdapter.registerPlugin(), { prefix: path });
      done();
    });
    return;
  }
  const { ExpressAdapter } = require('@bull-board/express') as typeof import('@bull-board/express');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const serverAdapter = new ExpressAdapter().setBasePath(path);
  createBullBoard({ queues: [new BullMQAdapter(queue)], serverAdapter, options: { uiConfig: { boardTitle } } });
  (http.getInstance() as { use: (...args: unknown[]) => void }).use(
    path,
    (req: DashboardRequest, res: unknown, next: () => void) => guard(req, res, next),
    serverAdapter.getRouter(),
  );
}
