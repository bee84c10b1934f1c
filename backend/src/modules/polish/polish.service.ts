import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { DomainError, notFound } from '../../common/errors';
import { UUID } from '../../common/pagination';
import { defaultQuestionText } from '@cds/engine';
import { POLISH_JOB_QUEUE, POLISH_JOBS, type PolishJobData } from './polish.constants';
import { polishInputHash, polishInputOf, polishJobId, type PolishSource } from './polish-input';
import { storedQuestion } from './question-text';
import { PolishRepository } from './polish.repository';
import type { PolishEnqueueJson, PolishStatusJson } from '@cds/contracts';
import { PolishProviders, type ProviderName } from './providers/polish-providers';
import type { JobQueue } from './queue/job-queue';

export type PolishOutcome = { status: 'polished'; provider: ProviderName } | { status: 'skipped'; reason: 'deleted' | 'stale' };

const HASH = /^[0-9a-f]{64}$/;

@Injectable()
export class PolishService {
  private readonly logger = new Logger('Polish');

  constructor(
    @Inject(POLISH_JOB_QUEUE) private readonly queue: JobQueue<PolishJobData>,
    private readonly store: PolishRepository,
    private readonly providers: PolishProviders,
  ) {}

  /**
   * For the parameters service, after a parameter is created or changed (committed): queues a
   * job when its stored question is missing or was polished from another input (display
   * name, name, category, data type, units). Never throws: a parameter save must not fail
   * because Redis is away, and the start-up sweep picks up anything missed.
   */
  async parameterSaved(parameter: PolishSource & { id: string; polished_input_hash?: string | null }): Promise<void> {
    const hash = polishInputHash(parameter);
    if (parameter.polished_input_hash === hash) return;
    try {
      await this.enqueue(parameter.id, hash);
    } catch (err) {
      this.logger.warn(`Could not queue polishing for parameter ${parameter.id}: ${(err as Error).message}`);
    }
  }

  /** On demand (admin): queues the parameter as it is now. */
  async requestPolish(parameterId: string): Promise<PolishEnqueueJson> {
    const parameter = await this.store.find(parameterId);
    if (!parameter) throw notFound('Parameter');
    const { id, added } = await this.enqueue(parameter.id, polishInputHash(parameter)).catch(queueUnavailable);
    return { job_id: id, parameter_id: parameter.id, status: added ? 'queued' : 'already_queued' };
  }

  /** The job: reload, skip if deleted or changed since queued, polish, store. Safe to run twice. */
  async polishStoredParameter(data: PolishJobData): Promise<PolishOutcome> {
    if (
      typeof data?.parameterId !== 'string' ||
      !UUID.test(data.parameterId) ||
      typeof data.inputHash !== 'string' ||
      !HASH.test(data.inputHash)
    ) {
      throw new UnrecoverableError('Malformed polish job payload');
    }
    const parameter = await this.store.find(data.parameterId);
    if (!parameter) return { status: 'skipped', reason: 'deleted' };
    // A newer job carries the new input; this one would write a question for the old one.
    if (polishInputHash(parameter) !== data.inputHash) return { status: 'skipped', reason: 'stale' };
    const result = await this.providers.polish(polishInputOf(parameter));
    const saved = await this.store.savePolished(parameter, result.question, result.provider, data.inputHash);
    return saved ? { status: 'polished', provider: result.provider } : { status: 'skipped', reason: 'stale' };
  }

  /**
   * POST /api/polish-question: answers at once through the provider chain. A known parameter
   * lends its category, data type and units, and its stored question when it is current.
   */
  async polishQuestion(displayName: string, parameterName: string): Promise<string> {
    try {
      const known = await this.store.findByName(parameterName).catch(() => null);
      if (known && known.display_name === displayName) {
        return storedQuestion(known) ?? (await this.providers.polish(polishInputOf(known))).question;
      }
      return (
        await this.providers.polish({
          displayName,
          name: parameterName,
          category: known?.category,
          dataType: known?.data_type,
          units: known?.units,
        })
      ).question;
    } catch (err) {
      this.logger.warn(`Polishing failed unexpectedly: ${(err as Error).message}`);
      return defaultQuestionText({ display_name: displayName, name: parameterName });
    }
  }

  /** For /api/health: the queue's own connection answers, so health opens none of its own. */
  queueHealthy(): Promise<boolean> {
    return this.queue.isHealthy();
  }

  async status(): Promise<PolishStatusJson> {
    return { driver: this.queue.driver, provider: this.providers.primary, counts: await this.queue.counts().catch(queueUnavailable) };
  }

  /** Queues every parameter whose stored question is missing or out of date. */
  async sweep(): Promise<number> {
    let queued = 0;
    for (const p of await this.store.all()) {
      const hash = polishInputHash(p);
      if (p.polished_input_hash === hash) continue;
      if ((await this.enqueue(p.id, hash)).added) queued += 1;
    }
    return queued;
  }

  private enqueue(parameterId: string, inputHash: string) {
    return this.queue.add(POLISH_JOBS.parameter, { parameterId, inputHash }, polishJobId(parameterId, inputHash));
  }
}

function queueUnavailable(): never {
  throw new DomainError('service_unavailable', 'The polishing queue is unavailable; try again shortly');
}
