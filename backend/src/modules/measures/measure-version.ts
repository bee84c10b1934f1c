import { createHash } from 'node:crypto';
import type { ShippedMeasure } from './measure-content';
import { valueSetsOf } from './measure-content';

/**
 * The version of a measure a stored result was computed under: its model (parameters with their criteria,
 * rules, populations) and the codes of every value set it names, as loaded now, hashed. Publishing a new
 * measure model or loading a new expansion of one of its value sets gives a new version, and every result of
 * the old one stops being current.
 */
export function measureVersion(m: ShippedMeasure, codes: ReadonlyMap<string, readonly string[]>): string {
  const hash = createHash('sha256').update(JSON.stringify(m.model));
  for (const url of [...new Set(valueSetsOf(m))].sort()) hash.update(`\n${url}=${[...(codes.get(url) ?? [])].sort().join(',')}`);
  return `${m.identifier}-${hash.digest('hex').slice(0, 24)}`;
}
