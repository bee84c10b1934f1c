import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { isAdmin, normalizeRole } from '@cds/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DomainError } from '../../common/errors';
import type { AuthUser } from '../../common/auth-user';
import { mountQueueDashboard, type DashboardRequest as Request } from '../../http/bull-board';
import { redirect, sendJson, setHeader } from '../../http/respond';
import { POLISH_JOB_QUEUE, type PolishJobData } from './polish.constants';
import { BullmqJobQueue } from './queue/bullmq-job-queue';
import type { JobQueue } from './queue/job-queue';
import { PolishRepository } from './polish.repository';

export const DASHBOARD_PATH = '/api/admin/queues';
const COOKIE = 'cds_queue_dashboard';
const TICKET_TTL_S = 60;
const SESSION_TTL_S = 15 * 60;
type Purpose = 'ticket' | 'session';
interface Claims {
  purpose: Purpose;
  sub: string;
  sid: string;
  jti: string;
  exp: number;
}

export interface DashboardLink {
  url: string;
  expires_at: string;
}

/**
 * Bull Board, for administrators, when the queue is on Redis. A browser cannot send a bearer
 * token on navigation, so an admin asks POST /api/polish/dashboard-link for a one-time ticket
 * (valid 60 s); opening the URL trades it for an HttpOnly, SameSite=Strict cookie scoped to
 * the dashboard path (15 min). Every dashboard request re-checks, like the bearer guard,
 * that the session is still open and the role is still admin or super_admin.
 */
@Injectable()
export class QueueDashboard implements OnModuleInit {
  private readonly logger = new Logger('QueueDashboard');
  private readonly key: Buffer;

  constructor(
    @Inject(POLISH_JOB_QUEUE) private readonly queue: JobQueue<PolishJobData>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: PolishRepository,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    // Its own key: a dashboard ticket can never pass for an access token, nor the reverse.
    this.key = createHmac('sha256', config.jwtSecret).update('queue-dashboard').digest();
  }

  get available(): boolean {
    return this.queue instanceof BullmqJobQueue;
  }

  onModuleInit() {
    const http = this.adapterHost.httpAdapter;
    if (!http?.getInstance?.() || !(this.queue instanceof BullmqJobQueue)) return; // worker process, or no Redis
    mountQueueDashboard(http, DASHBOARD_PATH, this.queue.queue, 'Question polishing', (req, res, next) => void this.guard(req, res, next));
  }

  mintLink(user: AuthUser): DashboardLink {
    if (!this.available) throw new DomainError('not_found', 'The queue dashboard exists only when the queue runs on Redis (REDIS_URL)');
    const exp = Math.floor(Date.now() / 1000) + TICKET_TTL_S;
    const ticket = this.sign({ purpose: 'ticket', sub: user.id, sid: user.sessionId, jti: randomUUID(), exp });
    return { url: `${DASHBOARD_PATH}?ticket=${ticket}`, expires_at: new Date(exp * 1000).toISOString() };
  }

  private async guard(req: Request, res: unknown, next: () => void) {
    try {
      const ticket = typeof req.query.ticket === 'string' ? req.query.ticket : undefined;
      if (ticket) {
        const claims = this.verify(ticket, 'ticket');
        if (!claims || !(await this.claimOnce(claims)))
          return deny(res, 401, 'unauthorized', 'This dashboard link has expired or was already used');
        const role = await this.roleOf(claims);
        if (!role) return deny(res, 401, 'unauthorized', 'Session not found');
        if (!isAdmin(normalizeRole(role))) return deny(res, 403, 'forbidden', 'You do not have permission to perform this action');
        const exp = Math.floor(Date.now() / 1000) + SESSION_TTL_S;
        const session = this.sign({ purpose: 'session', sub: claims.sub, sid: claims.sid, jti: randomUUID(), exp });
        const secure = req.protocol === 'https' || this.config.publicUrl.startsWith('https:');
        setHeader(
          res,
          'Set-Cookie',
          `${COOKIE}=${session}; Path=${DASHBOARD_PATH}; Max-Age=${SESSION_TTL_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
        );
        setHeader(res, 'Cache-Control', 'no-store');
        // Drop the ticket from the address bar and the history.
        return redirect(res, 303, `${DASHBOARD_PATH}/`);
      }
      const claims = this.verify(readCookie(req.headers.cookie, COOKIE), 'session');
      if (!claims) return deny(res, 401, 'unauthorized', 'Open the queue dashboard from the admin console');
      const role = await this.roleOf(claims);
      if (!role) return deny(res, 401, 'unauthorized', 'Session not found');
      if (!isAdmin(normalizeRole(role))) return deny(res, 403, 'forbidden', 'You do not have permission to perform this action');
      return next();
    } catch (err) {
      this.logger.error(err instanceof Error ? err : String(err));
      return deny(res, 503, 'service_unavailable', 'The queue dashboard is unavailable');
    }
  }

  /** The same check as the bearer strategy: session open, current role. Null when the session is gone. */
  private async roleOf(claims: Claims): Promise<string | null> {
    return this.repo.openSessionRole(claims.sid, claims.sub);
  }

  /** A ticket works once: a leaked URL (history, a screenshot) is useless afterwards. */
  private async claimOnce(claims: Claims): Promise<boolean> {
    if (!(this.queue instanceof BullmqJobQueue)) return false;
    const ok = await this.queue.redis.set(`${this.config.queue.prefix}:dashboard-ticket:${claims.jti}`, '1', 'EX', TICKET_TTL_S * 2, 'NX');
    return ok === 'OK';
  }

  private sign(claims: Claims): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${createHmac('sha256', this.key).update(body).digest('base64url')}`;
  }

  private verify(token: string | undefined, purpose: Purpose): Claims | null {
    if (!token || token.length > 1000) return null;
    const [body, mac] = token.split('.');
    if (!body || !mac) return null;
    const expected = createHmac('sha256', this.key).update(body).digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims;
      if (claims.purpose !== purpose || typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return null;
      return claims.exp > Date.now() / 1000 ? claims : null;
    } catch {
      return null;
    }
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function deny(res: unknown, statusCode: number, code: string, message: string) {
  sendJson(res, statusCode, { statusCode, code, message });
}
