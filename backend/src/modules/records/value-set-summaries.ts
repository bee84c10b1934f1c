import type { ValueSetSummaryJson } from '@cds/contracts';
import { codesOf } from './value-set-codes';

/**
 * The value sets an administrator may name in a criterion, one per canonical URL: the stored ones
 * (several stored versions of one URL are read as their union, as a criterion reads them), then the
 * shipped ones not stored, by title.
 */
export function valueSetSummaries(
  stored: readonly Record<string, unknown>[],
  shipped: readonly Record<string, unknown>[],
): ValueSetSummaryJson[] {
  const byUrl = new Map<string, { resources: Record<string, unknown>[]; source: 'stored' | 'shipped' }>();
  for (const [list, source] of [
    [stored, 'stored'],
    [shipped, 'shipped'],
  ] as const) {
    for (const r of list) {
      if (typeof r.url !== 'string' || !r.url) continue;
      const seen = byUrl.get(r.url);
      if (!seen) byUrl.set(r.url, { resources: [r], source });
      else if (seen.source === source) seen.resources.push(r);
    }
  }
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return [...byUrl]
    .map(([url, { resources, source }]) => {
      const tokens = new Set(resources.flatMap(codesOf));
      const last = resources[resources.length - 1];
      return {
        url,
        title: text(last.title) ?? text(last.name) ?? url,
        version: text(last.version),
        code_count: tokens.size,
        systems: [...new Set([...tokens].map((t) => t.slice(0, t.indexOf('|'))))].sort(),
        source,
      };
    })
    .sort((a, b) => a.title.localeCompare(b.title) || a.url.localeCompare(b.url));
}
