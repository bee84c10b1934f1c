import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The value sets the shipped measures name, as the measure developers published them (VSAC
 * expansions from the 2024 eCQM package, CC0): stored as records at start-up when missing, so
 * the measures work on a fresh install. An administrator may load newer expansions with POST /api/fhir.
 */
const DIR = join(__dirname, '..', '..', '..', 'content', 'ecqm-valuesets');

export function shippedValueSets(): Record<string, unknown>[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Record<string, unknown>);
}
