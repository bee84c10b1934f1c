import { prepareMeasure, type PreparedMeasure } from '@cds/engine';
import { measureValueSets, SHIPPED_MEASURES, type ShippedMeasure } from '../measures/content';

type Codes = ReadonlyMap<string, readonly string[]>;

/** The value sets each measure's criteria name (a local version keeps the shipped criteria), and all of them: read once. */
const VALUE_SETS_OF = new Map(SHIPPED_MEASURES.map((m) => [m.id, measureValueSets(m)] as const));
export const MEASURE_VALUE_SETS = [...new Set([...VALUE_SETS_OF.values()].flat())].sort();

/** Whether two lists hold the same objects in the same order (kept copies are current while their inputs are the same objects). */
export const sameItems = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Each published measure prepared by the engine for a hook call's gap cards, kept per process: made again only when
 * an expansion it reads, or its published version, changed (value-set codes come as the same arrays while they are
 * current, so identity is the check).
 */
export class GapMeasures {
  private readonly prepared = new Map<string, { sets: (readonly string[] | undefined)[]; m: ShippedMeasure; prepared: PreparedMeasure }>();

  /** A published measure prepared by the engine, as the Panel prepares it. */
  preparedOf(m: ShippedMeasure, valueSets: Codes): PreparedMeasure {
    const sets = (VALUE_SETS_OF.get(m.id) ?? measureValueSets(m)).map((url) => valueSets.get(url));
    const kept = this.prepared.get(m.id);
    if (kept && kept.m === m && sameItems(kept.sets, sets)) return kept.prepared;
    const prepared = prepareMeasure(m.model, valueSets);
    this.prepared.set(m.id, { sets, m, prepared });
    return prepared;
  }
}
