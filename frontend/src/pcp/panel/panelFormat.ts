import type { PanelGapJson, PanelStatus } from '@cds/contracts';

/** A period is whole calendar days: shown in UTC so a date never moves a day with the viewer's time zone. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

export const yearPeriod = (year: number) => ({ start: `${year}-01-01`, end: `${year}-12-31` });

export const percent = (score: number | null): string => (score === null ? '—' : `${Math.round(score * 1000) / 10} %`);

export const STATUS_LABEL: Record<PanelStatus, string> = {
  met: 'Goal met',
  gap: 'Gap',
  excluded: 'Excluded',
  undetermined: 'Not determined',
};

export type SortKey = 'name' | 'age' | 'measure';

/** The gap list filtered by measure and text (name, reason, patient id), then sorted; ties keep name order. */
export function filterGaps(
  gaps: readonly PanelGapJson[],
  opts: { measure: string; text: string; sort: SortKey; direction: 'asc' | 'desc' },
): PanelGapJson[] {
  const q = opts.text.trim().toLowerCase();
  const rows = gaps.filter(
    (g) =>
      (opts.measure === 'all' || g.measure_id === opts.measure) &&
      (!q || [g.name, g.reason, g.patient_id, g.identifier].some((s) => s.toLowerCase().includes(q))),
  );
  const byName = (a: PanelGapJson, b: PanelGapJson) => a.name.localeCompare(b.name) || a.patient_id.localeCompare(b.patient_id);
  const cmp = (a: PanelGapJson, b: PanelGapJson): number => {
    if (opts.sort === 'age') return (a.age ?? -1) - (b.age ?? -1);
    if (opts.sort === 'measure') return a.identifier.localeCompare(b.identifier);
    return 0;
  };
  const sign = opts.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => sign * (cmp(a, b) || byName(a, b)));
}
