import { Injectable } from '@nestjs/common';
import { PublishedRules, type Knowledge } from '../assessments';
import { PublishedMeasures } from '../measure-versions';
import type { ShippedMeasure } from '../measures/content';
import { CdsHooksRepository, type VerifiableClient } from './cds-hooks.repository';

/** What a hook call reads besides the immutable version snapshots, as of one generation. */
export interface HookSnapshot {
  generation: string;
  knowledge: Knowledge;
  loincCodes: ReadonlyMap<string, string>;
  /** Active clients by issuer. */
  clients: ReadonlyMap<string, VerifiableClient>;
  /** The measures as published (their gap cards): a publish moves the generation. */
  measures: ShippedMeasure[];
}

/**
 * Thrown inside a hook call when its copy may be stale: the call starts again on a current one.
 * `moved`: the recording statement found the generation moved (the copy is read again at once); else the
 * copy is only unconfirmed (a FHIR fetch is next), and the generation alone is checked first.
 */
export class StaleSnapshot extends Error {
  constructor(readonly moved = true) {
    super('What this hook call read has changed since');
  }
}

/**
 * This process's copy of what hook calls read: registered clients, which versions are published,
 * parameters' LOINC codes, which version of each quality measure is published. A call is evaluated on it, and the one statement that records the call
 * checks that its generation is still current (`CdsHooksRepository.recordHookCall`), so a copy is
 * never trusted, only checked: a call evaluated on a stale one is evaluated again on a fresh one.
 */
@Injectable()
export class HookSnapshots {
  private latest: Promise<HookSnapshot> | null = null;
  private value: HookSnapshot | null = null;

  constructor(
    private readonly repo: CdsHooksRepository,
    private readonly published: PublishedRules,
    private readonly measures: PublishedMeasures,
  ) {}

  /** Read now (discovery, which nothing checks afterwards). */
  fresh(): Promise<HookSnapshot> {
    return this.load();
  }

  current(): Promise<HookSnapshot> {
    return this.latest ?? this.load();
  }

  /** A copy read after `stale` was: one already being read since is shared, so a publish costs each process one re-read, not one per call in flight. */
  refreshed(stale: HookSnapshot): Promise<HookSnapshot> {
    return this.latest && this.value !== stale ? this.latest : this.load();
  }

  /**
   * `copy` when the stored generation is still its own (one single-row read), else a copy read after it.
   * For a call about to refuse, or to fetch from a FHIR server, on what this process keeps: a caller
   * who is not a client costs one statement, and never makes the process read every client again.
   */
  async confirmed(copy: HookSnapshot): Promise<HookSnapshot> {
    return (await this.repo.hookGeneration()) === copy.generation ? copy : this.refreshed(copy);
  }

  private load(): Promise<HookSnapshot> {
    const p = this.read().then(
      (s) => {
        if (this.latest === p) this.value = s;
        return s;
      },
      (e: unknown) => {
        if (this.latest === p) this.latest = null;
        throw e;
      },
    );
    this.latest = p;
    this.value = null;
    return p;
  }

  private async read(): Promise<HookSnapshot> {
    // The generation first, then what it guards: a change committed in between makes the copy newer
    // than its generation (the next recording finds the generation moved and the copy is read again),
    // never older.
    const { generation, clients } = await this.repo.hookGenerationAndClients();
    const { knowledge, loincCodes } = await this.published.currentWithLoincCodes();
    const measures = await this.measures.all();
    return { generation, knowledge, loincCodes, clients: new Map(clients.map(({ issuer, ...c }) => [issuer, c])), measures };
  }
}
