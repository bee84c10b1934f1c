import type { Knowledge } from '../assessments';
import type { ValueSets } from '../records';
import type { ShippedMeasure } from '../measures/content';
import { MEASURE_VALUE_SETS, sameItems } from './gap-measures';
import { measureNeedsOf, type MeasureNeeds } from './measure-gaps';
import { cutPointsOf } from './record-context';
import { HISTORY_BOUND, valueSetsOf, type HistoryInput, type HistorySearch } from './record-history';
import { HISTORY_COUNT, needsOf, observationKey, observationTokens, type Measured, type Needs } from './record-needs';
import { shareSearches, type SharedRead } from './search-sharing';

type Codes = ReadonlyMap<string, readonly string[]>;

/**
 * What calls read for one published knowledge, LOINC codes, measures and value-set expansions: the needs,
 * the searches grouped as a call fetches them, and each measured parameter's cut-points.
 */
export interface HookPlan {
  needs: Needs;
  valueSets: Codes;
  measures: MeasureNeeds[];
  /** Observation searches by key, with the parameters each fills. */
  searches: [string, Measured[]][];
  /** History inputs grouped by the searches that read them. */
  historyGroups: HistoryInput[][];
  /** The cut-points the published rules use on each measured parameter. */
  cutPoints: ReadonlyMap<string, number[]>;
  /** Observation searches read, when made on the FHIR server, from another search of the call, by key. */
  shared: ReadonlyMap<string, SharedRead>;
}

/**
 * The plan of a hook call, kept per process: made again only when the knowledge, the LOINC-code map, a
 * published measure or an expansion it was made from is another object (a publish makes a new knowledge
 * and measure list, a parameter edit a new map, an expansion read again new arrays), not on every call.
 */
export class HookPlans {
  /** The value sets the published rules and measures name, per knowledge and LOINC codes. */
  private wanted: { k: Knowledge; loincCodes: ReadonlyMap<string, string>; urls: string[] } | null = null;
  /** The last plan, with what it was made from. */
  private kept: {
    k: Knowledge;
    loincCodes: ReadonlyMap<string, string>;
    published: ShippedMeasure[];
    sets: (readonly string[] | undefined)[];
    plan: HookPlan;
  } | null = null;

  /**
   * What the published rules read from the record, with the value sets their criteria name (resolved
   * first: an Observation criterion by value set is searched by the codes of its expansion).
   */
  async of(
    k: Knowledge,
    loincCodes: ReadonlyMap<string, string>,
    published: ShippedMeasure[],
    valueSetCodes: ValueSets,
  ): Promise<HookPlan> {
    let wanted = this.wanted;
    if (wanted?.k !== k || wanted.loincCodes !== loincCodes) {
      const first = needsOf(k, loincCodes);
      wanted = { k, loincCodes, urls: [...new Set([...valueSetsOf(first.histories), ...MEASURE_VALUE_SETS])].sort() };
      this.wanted = wanted;
    }
    // Asked on every call: the expansions are kept a while, and come as the same arrays while they are current.
    const valueSets = await valueSetCodes.codes(wanted.urls);
    const sets = wanted.urls.map((url) => valueSets.get(url));
    const kept = this.kept;
    if (kept?.k === k && kept.loincCodes === loincCodes && sameItems(kept.published, published) && sameItems(kept.sets, sets))
      return kept.plan;
    const needs = needsOf(k, loincCodes, valueSets);
    const searches = new Map<string, Measured[]>();
    for (const m of needs.measured) searches.set(observationKey(m.loinc), [...(searches.get(observationKey(m.loinc)) ?? []), m]);
    const historyGroups = new Map<string, HistoryInput[]>();
    for (const h of needs.histories) {
      const key = h.searches.map((s) => s.key).join(' ');
      historyGroups.set(key, [...(historyGroups.get(key) ?? []), h]);
    }
    const measures = measureNeedsOf(published, valueSets);
    const histories = new Map<string, HistorySearch>();
    for (const s of [...needs.histories.flatMap((h) => h.searches), ...measures.flatMap((m) => m.inputs.flatMap((i) => i.searches))])
      if (s.resourceType === 'Observation' && s.codes && !histories.has(s.key)) histories.set(s.key, s);
    const plan: HookPlan = {
      needs,
      valueSets,
      measures,
      searches: [...searches],
      historyGroups: [...historyGroups.values()],
      cutPoints: new Map(needs.measured.map((m) => [m.parameter.id, cutPointsOf(k, m.parameter)])),
      shared: shareSearches(
        [...searches].map(([key, group]) => ({ key, codes: observationTokens(group[0].loinc), count: HISTORY_COUNT, pages: false })),
        [...histories.values()].map((s) => ({ key: s.key, codes: s.codes!, count: HISTORY_BOUND, pages: true })),
      ),
    };
    this.kept = { k, loincCodes, published, sets, plan };
    return plan;
  }
}
