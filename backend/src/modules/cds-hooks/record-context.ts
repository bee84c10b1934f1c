import { cutPoints, type EngineParameter } from '@cds/engine';
import type { Knowledge, ParameterHistorySnapshot, RecordHistorySnapshot } from '../assessments';

/** The cut-points the published rules use on a parameter, in its unit: the lines its history is read against. */
export const cutPointsOf = (k: Knowledge, p: EngineParameter): number[] =>
  cutPoints(p, k.rules, k.parameters, k.prepared).map((c) => c.value);

/** The histories read, in the parameters' order; parameters without a result in the record are left out. */
export function historySnapshot(
  k: Knowledge,
  read: ReadonlyMap<string, ParameterHistorySnapshot | null>,
  now: Date,
): RecordHistorySnapshot {
  const parameters: ParameterHistorySnapshot[] = [];
  for (const p of k.parameters) {
    const h = read.get(p.id);
    if (h) parameters.push(h);
  }
  return { read_at: now.toISOString(), parameters };
}
