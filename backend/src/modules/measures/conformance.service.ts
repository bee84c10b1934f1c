import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { ConformanceCaseJson, ConformanceJson, ConformanceMeasureJson } from '@cds/contracts';
import { prepareMeasure, type PopulationCode } from '@cds/engine';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { codesOf } from '../records';
import { PublishedMeasures } from '../measure-versions';
import { SHIPPED_MEASURES } from './shipped-measures';
import type { ShippedMeasure } from './measure-content';

const POPULATIONS: PopulationCode[] = ['initial-population', 'denominator', 'denominator-exclusion', 'numerator'];

interface DeckCase {
  description?: string;
  measurement_period: { start: string; end: string };
  expected: Record<string, number>;
  bundle: { entry?: { resource?: unknown }[] };
}

/**
 * The admin console's conformance tab (issue 21): every case of the official eCQM decks in ECQM_DIR evaluated
 * by the shipped measures' own criteria and rules (the engine the Panel uses), against the deck's value sets,
 * without storing the test patients among the clinic's. The decks do not change while the process runs: the
 * report is computed once.
 */
@Injectable()
export class ConformanceService {
  private cached: Promise<ConformanceJson> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly published: PublishedMeasures,
  ) {}

  /** The decks' report on the shipped definitions, each naming the published local version where one differs from it. */
  async report(): Promise<ConformanceJson> {
    this.cached ??= Promise.resolve().then(() => this.run());
    this.cached.catch(() => (this.cached = null));
    const [report, published] = await Promise.all([this.cached, this.published.all()]);
    return {
      ...report,
      measures: report.measures.map((m) => ({ ...m, published_version: published.find((p) => p.id === m.id)?.local ?? null })),
    };
  }

  private run(): ConformanceJson {
    const dir = this.config.ecqmDir;
    if (!existsSync(dir) || !readdirSync(dir).some((d) => d.startsWith('CMS')))
      return { available: false, directory: dir, agreed: 0, total: 0, measures: [] };
    const measures = SHIPPED_MEASURES.map((m) => this.measure(dir, m));
    const cases = measures.flatMap((m) => m.cases);
    return { available: true, directory: dir, agreed: cases.filter((c) => c.agrees).length, total: cases.length, measures };
  }

  private measure(dir: string, m: ShippedMeasure): ConformanceMeasureJson {
    const deck = readdirSync(dir).find((d) => d.startsWith(`${m.identifier}-`)) ?? null;
    const base = { id: m.id, identifier: m.identifier, title: m.title, deck, published_version: null };
    if (!deck) return { ...base, agreed: 0, cases: [] };
    const codes = new Map<string, string[]>();
    for (const f of readdirSync(join(dir, deck, 'valuesets')).filter((f) => f.endsWith('.json'))) {
      const v = JSON.parse(readFileSync(join(dir, deck, 'valuesets', f), 'utf8')) as Record<string, unknown>;
      codes.set(String(v.url), [...new Set([...(codes.get(String(v.url)) ?? []), ...codesOf(v)])]);
    }
    const prepared = prepareMeasure(m.model, codes);
    const now = Date.now();
    const cases: ConformanceCaseJson[] = readdirSync(join(dir, deck, 'cases'))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((file) => {
        const c = JSON.parse(readFileSync(join(dir, deck, 'cases', file), 'utf8')) as DeckCase;
        const outcome = prepared.evaluate(
          (c.bundle.entry ?? []).map((e) => e.resource).filter((r) => r !== undefined),
          c.measurement_period,
          now,
        );
        const expected = Object.fromEntries(POPULATIONS.map((p) => [p, Number(c.expected[p] ?? 0)]));
        const actual = Object.fromEntries(POPULATIONS.map((p) => [p, outcome.populations[p] === true ? 1 : 0]));
        return {
          file,
          description: c.description ?? file,
          period: c.measurement_period,
          expected,
          actual,
          agrees: POPULATIONS.every((p) => expected[p] === actual[p]),
        };
      });
    return { ...base, agreed: cases.filter((c) => c.agrees).length, cases };
  }
}
