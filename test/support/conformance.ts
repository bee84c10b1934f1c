import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `../shared/conformance/ecqm-2024`: the official CMS test decks, beside the repository (CI copies shared/ there too);
 * ECQM_DIR names them elsewhere (a git worktree not beside shared/).
 */
export const ECQM_DIR = process.env.ECQM_DIR || join(__dirname, '..', '..', '..', 'shared', 'conformance', 'ecqm-2024');

export interface ConformanceCase {
  measure: string;
  file: string;
  id: string;
  description: string;
  measurement_period: { start: string; end: string };
  expected: Record<string, number>;
  bundle: { resourceType: 'Bundle'; type: string; entry: { fullUrl?: string; resource: Record<string, unknown> }[] };
}

/** Every case of every measure folder, in a stable order. */
export function conformanceCases(): ConformanceCase[] {
  return readdirSync(ECQM_DIR)
    .filter((d) => d.startsWith('CMS'))
    .sort()
    .flatMap((measure) =>
      readdirSync(join(ECQM_DIR, measure, 'cases'))
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map(
          (file) =>
            ({ measure, file, ...(JSON.parse(readFileSync(join(ECQM_DIR, measure, 'cases', file), 'utf8')) as object) }) as ConformanceCase,
        ),
    );
}

/** Every value set the decks name (one resource per canonical URL), as FHIR ValueSet JSON. */
export function conformanceValueSets(): Record<string, unknown>[] {
  const byUrl = new Map<string, Record<string, unknown>>();
  for (const measure of readdirSync(ECQM_DIR)
    .filter((d) => d.startsWith('CMS'))
    .sort())
    for (const file of readdirSync(join(ECQM_DIR, measure, 'valuesets')).sort()) {
      const v = JSON.parse(readFileSync(join(ECQM_DIR, measure, 'valuesets', file), 'utf8')) as Record<string, unknown>;
      byUrl.set(String(v.url), v);
    }
  return [...byUrl.values()];
}
