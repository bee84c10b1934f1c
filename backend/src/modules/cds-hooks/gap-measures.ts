import { prepareMeasure, type PreparedMeasure } from '@cds/engine';
import { measureValueSets, SHIPPED_MEASURES, type ShippedMeasure } from '../measures/content';
import { measureNeedsOf, type MeasureNeeds } from './measure-gaps';

type Codes = ReadonlyMap<string, readonly string[]>;

/** The value sets each measure's criteria name (a local version keeps the shipped criteria), and all of them: read once. */
const VALUE_SETS_OF = new Map(SHIPPED_MEASURES.map((m) => [m.id, measureValueSets(m)] as const));
export const MEASURE_VALUE_SETS = [...new Set([...VALUE_SETS_OF.values()].flat())].sort();

/**
 * What a hook call needs of the published measures, kept per process: their searches and each measure prepared by the
 * engine, made again only when an expansion they read, or a published version, changed (value-set codes come as the
 * same arrays while they are current, so identity is the check).
 */
export class GapMeasures {
  private kept: { sets: (readonly string[] | undefined)[]; measures: ShippedMeasure[]; needs: MeasureNeeds[] } | null = null;
  private readonly prepared = new Map<string, { sets: (readonly string[] | undefined)[]; m: ShippedMeasure; prepared: PreparedMeasure }>();

  needs(valueSets: Codes, measures: ShippedMeasure[]): MeasureNeeds[] {
    const sets = MEASURE_VALUE_SETS.map((url) => valueSets.get(url));
    const kept = this.kept;
    if (kept?.sets.every((s, i) => s === sets[i]) && kept.measures.every((m, i) => m === measures[i])) return kept.needs;
    const needs = measureNeedsOf(measures, valueSets);
    this.kept = { sets, measures, needs };
    return needs;
  }

  /** A published measure prepared by the engine, as the Panel prepares it. */
  preparedOf(m: ShippedMeasure, valueSets: Codes): PreparedMeasure {
    const sets = (VALUE_SETS_OF.get(m.id) ?? measureValueSets(m)).map((url) => valueSets.get(url));
    const kept = this.prepared.get(m.id);
    if (kept && kept.m === m && kept.sets.every((s, i) => s === sets[i])) return kept.prepared;
    const prepared = prepareMeasure(m.model, valueSets);
    this.prepared.set(m.id, { sets, m, prepared });
    return prepared;
  }
}
