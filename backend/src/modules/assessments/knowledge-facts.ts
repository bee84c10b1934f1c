import { Injectable } from '@nestjs/common';
import { defaultQuestionText, type EngineParameter } from '@cds/engine';
import { DomainError } from '../../common/errors';
import { questionText } from '../polish';
import { AssessmentsRepository } from './assessments.repository';
import { PublishedRules, type Knowledge } from './published-rules';

/**
 * The lowest knowledge generation among the facts one decision used (Infinity: it used none). The
 * decision's write passes it, and applies only while it is still the stored generation.
 */
export interface Seen {
  generation: number;
}

export const nothingSeen = (): Seen => ({ generation: Number.POSITIVE_INFINITY });

/** The generation a write must find, or null when the decision used no kept fact. */
export const guardOf = (seen: Seen): number | null => (Number.isFinite(seen.generation) ? seen.generation : null);

/**
 * What an answer or a start needs to know about the parameters and the rule sets as they are now (which
 * published versions a new assessment uses, each parameter's LOINC code, each question's wording), kept
 * in this process between answers instead of read on each one. Each fact is kept with the knowledge
 * generation it was read at (`knowledge_generation`, moved on by a trigger at the commit of any write to
 * the parameters, rule sets or versions, from any process or tool), and the write it leads to applies only
 * while that generation is still stored: a publish, a deactivation or a parameter edit anywhere is honoured
 * by the next write after its commit, which fails, forgets everything kept here and is decided again on
 * fresh reads. A refusal decided on kept facts is decided again on fresh ones (the services do so), since
 * a refusal writes nothing that could check it.
 */
@Injectable()
export class KnowledgeFacts {
  private generation = -1;
  private versionIds: readonly string[] | null = null;
  private loinc: ReadonlyMap<string, string> | null = null;
  private readonly wording = new Map<string, string>();
  /** Reads in flight, by what they read: requests that miss together share one read. */
  private readonly reading = new Map<string, Promise<unknown>>();

  constructor(
    private readonly repo: AssessmentsRepository,
    private readonly published: PublishedRules,
  ) {}

  /** Drops everything kept; `generation` is the newest one known (a failed write reports it). */
  forget(generation = -1): void {
    if (generation !== -1 && generation < this.generation) return;
    this.generation = generation;
    // A read already in flight may predate the change: later requests start their own.
    this.reading.clear();
    this.versionIds = null;
    this.loinc = null;
    this.wording.clear();
  }

  /** The published versions a new assessment or chat uses now, merged. */
  async current(seen: Seen): Promise<Knowledge> {
    let ids = this.versionIds;
    if (ids) this.saw(seen, this.generation);
    else {
      const read = await this.once('versions', async () => {
        // The generation first: facts read after it are at least as new as it says.
        const generation = await this.repo.knowledgeGeneration();
        const versionIds = await this.published.publishedVersionIds();
        if (this.keepAt(generation)) this.versionIds = versionIds;
        return { generation, versionIds };
      });
      ids = read.versionIds;
      this.saw(seen, read.generation);
    }
    return this.published.currentOf(ids);
  }

  /** The LOINC codes stored for these parameters (those without one are left out). */
  async loincCodes(ids: readonly string[], seen: Seen): Promise<Map<string, string>> {
    let codes = this.loinc;
    if (codes) this.saw(seen, this.generation);
    else {
      const read = await this.once('loinc', async () => {
        const { generation, codes } = await this.repo.loincCodes();
        const byId = new Map(Object.entries(codes));
        if (this.keepAt(generation)) this.loinc = byId;
        return { generation, byId };
      });
      codes = read.byId;
      this.saw(seen, read.generation);
    }
    const all = codes;
    return new Map(ids.flatMap((id) => (all.has(id) ? [[id, all.get(id)!] as const] : [])));
  }

  /** The question's wording: the override, else the current polished question, else the default (as ParametersService words it). */
  async questionText(p: EngineParameter, seen: Seen): Promise<string> {
    const kept = this.wording.get(p.id);
    if (kept !== undefined) {
      this.saw(seen, this.generation);
      return kept;
    }
    const read = await this.once(`wording:${p.id}`, async () => {
      const { generation, source } = await this.repo.wordingSource(p.id);
      const text = source ? questionText(source) : defaultQuestionText(p);
      if (this.keepAt(generation)) this.wording.set(p.id, text);
      return { generation, text };
    });
    this.saw(seen, read.generation);
    return read.text;
  }

  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    const pending = this.reading.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const started: Promise<T> = read().finally(() => {
      if (this.reading.get(key) === started) this.reading.delete(key);
    });
    this.reading.set(key, started);
    return started;
  }

  /** Whether a fact read at `generation` may be kept (everything older is dropped first). */
  private keepAt(generation: number): boolean {
    if (generation > this.generation) this.forget(generation);
    return generation === this.generation;
  }

  private saw(seen: Seen, generation: number): void {
    seen.generation = Math.min(seen.generation, generation);
  }
}

/**
 * Runs checks that read LOINC codes with the kept ones; a refusal is decided again on the codes stored now
 * (a refusal writes nothing whose guard could catch a stale code).
 */
export async function checkWithCodes(
  facts: KnowledgeFacts,
  seen: Seen,
  checks: (codes: (ids: string[]) => Promise<Map<string, string>>) => Promise<void>,
): Promise<void> {
  try {
    await checks((ids) => facts.loincCodes(ids, seen));
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    facts.forget();
    await checks((ids) => facts.loincCodes(ids, seen));
  }
}
