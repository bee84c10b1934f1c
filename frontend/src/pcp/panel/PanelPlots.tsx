import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { PanelHba1cBand, PanelHba1cDistributionJson, PanelTrendJson, PanelTrendMeasureJson } from '@cds/contracts';
import { ErrorBlock } from '../../components/StateViews';
import { formatDay, percent } from './panelFormat';

/** "Nov 2026" from YYYY-MM, in UTC. */
export const monthName = (month: string, style: 'short' | 'long' = 'short') =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: style, year: 'numeric', timeZone: 'UTC' });

/** "Nov ’26": short enough for an axis label on a phone. */
const axisMonth = (month: string) =>
  `${new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' })} ’${month.slice(2, 4)}`;

const fraction = (p: { numerator: number; eligible: number }) => (p.eligible ? `${p.numerator} of ${p.eligible}` : 'none eligible');

const direction = (m: Pick<PanelTrendMeasureJson, 'improvement_notation'>) =>
  m.improvement_notation === 'decrease' ? 'Lower is better: a falling line is improvement' : 'Higher is better';

/** The accessible name of one measure's trend: its span, first and last scored months, and which way is better. */
export function trendSummary(m: PanelTrendMeasureJson): string {
  const scored = m.points.filter((p) => p.score !== null);
  const span = `${monthName(m.points[0].month)} to ${monthName(m.points[m.points.length - 1].month)}`;
  const head = `${m.identifier} score by month, ${span}`;
  if (!scored.length) return `${head}: no eligible patients in any month`;
  const first = scored[0];
  const last = scored[scored.length - 1];
  const at = (p: (typeof scored)[number]) => `${percent(p.score)} in ${monthName(p.month)} (${fraction(p)})`;
  return `${head}: ${scored.length === 1 ? at(first) : `from ${at(first)} to ${at(last)}`}. ${direction(m)}.`;
}

const PAD = { left: 44, right: 14, top: 14, bottom: 30 };

/** One measure's score over 12 months as a line, 0–100 %; a month without eligible patients breaks the line. */
function TrendChart({ m, narrow }: { m: PanelTrendMeasureJson; narrow: boolean }) {
  const W = narrow ? 320 : 360;
  const H = narrow ? 190 : 200;
  const n = m.points.length;
  const x = (i: number) => PAD.left + (i / Math.max(n - 1, 1)) * (W - PAD.left - PAD.right);
  const y = (score: number) => PAD.top + (1 - score) * (H - PAD.top - PAD.bottom);
  let path = '';
  m.points.forEach((p, i) => {
    if (p.score === null) return;
    const joined = i > 0 && m.points[i - 1].score !== null;
    path += `${joined ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.score).toFixed(1)} `;
  });
  // Every month has a tick; a phone labels three of them so the labels never touch.
  const ticks = n === 12 ? (narrow ? [0, 6, 11] : [0, 4, 8, 11]) : [0, n - 1];
  const inverse = m.improvement_notation === 'decrease';
  return (
    <Box component="figure" sx={{ m: 0, minWidth: 0, display: 'flex', flexDirection: 'column' }} data-testid={`trend-${m.identifier}`}>
      <Typography component="figcaption" variant="subtitle2">
        {m.identifier} · {m.title}
      </Typography>
      <Typography variant="body2" color={inverse ? 'warning.dark' : 'text.secondary'} sx={{ fontWeight: inverse ? 600 : 400 }}>
        {inverse ? '↓ ' : '↑ '}
        {direction(m)}
      </Typography>
      <Box
        component="svg"
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={trendSummary(m)}
        // The plots line up side by side whatever the length of the titles above them.
        sx={{ width: '100%', height: 'auto', display: 'block', mt: 'auto', pt: 0.5 }}
      >
        {m.points.map((p, i) => (
          <line key={p.month} x1={x(i)} x2={x(i)} y1={y(0)} y2={y(0) + 4} stroke="currentColor" strokeOpacity={0.4} />
        ))}
        {[0, 0.5, 1].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="currentColor" strokeOpacity={v === 0 ? 0.4 : 0.12} />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize={12} fill="currentColor">
              {v * 100} %
            </text>
          </g>
        ))}
        {ticks.map((i) => (
          <text
            key={i}
            x={x(i)}
            y={H - 10}
            fontSize={12}
            fill="currentColor"
            textAnchor={i === 0 ? 'start' : i === n - 1 ? 'end' : 'middle'}
          >
            {axisMonth(m.points[i].month)}
          </text>
        ))}
        <path d={path} fill="none" stroke="#1d4ed8" strokeWidth={2} />
        {m.points.map((p, i) =>
          p.score === null ? null : <circle key={p.month} cx={x(i)} cy={y(p.score)} r={i === n - 1 ? 4.5 : 3.5} fill="#1d4ed8" />,
        )}
        {m.points.every((p) => p.score === null) && (
          <text x={(PAD.left + W - PAD.right) / 2} y={y(0.5)} textAnchor="middle" fontSize={13} fill="currentColor">
            No eligible patients in these months
          </text>
        )}
      </Box>
    </Box>
  );
}

const better = (m: PanelTrendMeasureJson) => (m.improvement_notation === 'decrease' ? 'lower is better' : 'higher is better');

const TABLE_SX = {
  borderCollapse: 'collapse',
  fontSize: 14,
  width: '100%',
  '& th, & td': { py: 0.5, pr: 1.5, textAlign: 'left', borderBottom: 1, borderColor: 'divider', verticalAlign: 'top' },
  '& small': { color: 'text.secondary', fontSize: 12, display: 'block', fontWeight: 400 },
} as const;

/**
 * Every measure's monthly points, the exact values the lines draw. At a desk, months run left to right
 * as in the plots (a row per measure, so the gap list stays near); on a phone a row per month, newest
 * first, behind "Values by month" so the 12 rows do not push the gap list far down.
 */
function TrendTable({ trend, narrow }: { trend: PanelTrendJson; narrow: boolean }) {
  const points = trend.measures[0].points;
  if (!narrow)
    return (
      <Box sx={{ overflowX: 'auto', mt: 2 }}>
        <Box
          component="table"
          aria-label="Score by month"
          sx={{
            ...TABLE_SX,
            '& td': { whiteSpace: 'nowrap' },
            '& caption': { captionSide: 'bottom', textAlign: 'left', pt: 1, fontSize: 12, color: 'text.secondary' },
          }}
        >
          <caption>Each month: the score, then the numerator of the eligible patients; “none”: no eligible patient that month.</caption>
          <thead>
            <tr>
              <th scope="col">Measure</th>
              {points.map((p) => (
                <th key={p.month} scope="col" style={{ fontWeight: 400, whiteSpace: 'nowrap' }}>
                  <abbr title={monthName(p.month, 'long')} style={{ textDecoration: 'none' }}>
                    {axisMonth(p.month)}
                  </abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {trend.measures.map((m) => (
              <tr key={m.id}>
                <th scope="row" style={{ whiteSpace: 'nowrap' }}>
                  {m.identifier}
                  <small>{better(m)}</small>
                </th>
                {m.points.map((p) => (
                  <td key={p.month}>
                    {percent(p.score)}
                    <small>{p.eligible ? `${p.numerator} of ${p.eligible}` : 'none'}</small>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </Box>
      </Box>
    );
  return (
    <Box component="details" sx={{ mt: 2, '& summary': { cursor: 'pointer', color: 'primary.main', fontWeight: 600, py: 1 } }}>
      <summary>Values by month</summary>
      <Box component="table" aria-label="Score by month" sx={TABLE_SX}>
        <thead>
          <tr>
            <th scope="col">Month</th>
            {trend.measures.map((m) => (
              <th key={m.id} scope="col">
                {m.identifier}
                <small>{better(m)}</small>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...points.keys()].reverse().map((i) => (
            <tr key={points[i].month}>
              <th scope="row" style={{ fontWeight: 400, whiteSpace: 'nowrap' }}>
                {monthName(points[i].month)}
              </th>
              {trend.measures.map((m) => (
                <td key={m.id}>
                  {percent(m.points[i].score)}
                  <small>{fraction(m.points[i])}</small>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

/**
 * Each measure's score at the end of each of the last 12 months, each point a rolling year: the
 * lines to look at, and the table with every point's numerator and eligible patients to read.
 */
export function ScoreTrend({
  trend,
  error,
  loading,
  onRetry,
}: {
  trend: PanelTrendJson | null;
  error: unknown;
  loading: boolean;
  onRetry: () => void;
}) {
  const narrow = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const last = trend?.measures[0]?.points[trend.measures[0].points.length - 1];
  return (
    <Card component="section" aria-labelledby="score-trend-title">
      <CardContent>
        <Typography id="score-trend-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
          Score by month
        </Typography>
        {loading && (
          <Box
            role="status"
            aria-label="Loading the score by month"
            sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, mt: 1 }}
          >
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} variant="rectangular" height={180} />
            ))}
          </Box>
        )}
        {!loading && error ? <ErrorBlock title="Could not load the score by month." error={error} onRetry={onRetry} /> : null}
        {!loading && trend && last && (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="trend-basis">
              The last 12 months, whatever the measurement year above. Each point is the measure over the 12 months ending that month (a
              rolling year: {formatDay(last.period.start)} – {formatDay(last.period.end)} for {monthName(last.month, 'long')}), so every
              point covers a full year of care and the points compare with each other.
            </Typography>
            <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' } }}>
              {trend.measures.map((m) => (
                <TrendChart key={m.id} m={m} narrow={narrow} />
              ))}
            </Box>
            <TrendTable trend={trend} narrow={narrow} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Band colours from controlled to poorly controlled; no result and not readable in grey. Each bar is labelled, so colour is never the only cue. */
const BAND_COLOR: Record<PanelHba1cBand, string> = {
  below_7: '#15803d',
  from_7_below_8: '#a16207',
  from_8_to_9: '#c2410c',
  above_9: '#b91c1c',
  no_result: '#6b7280',
  not_readable: '#9ca3af',
};

/** The bands shown: every band a physician reads, and "not readable" only when a patient is in it. */
const shownBands = (d: PanelHba1cDistributionJson) => d.bands.filter((b) => b.band !== 'not_readable' || b.count > 0);

const share = (count: number, total: number) => (total ? `${Math.round((count / total) * 100)} %` : '—');

export function distributionSummary(d: PanelHba1cDistributionJson): string {
  return `Most recent HbA1c of the ${d.patients} ${d.patients === 1 ? 'patient' : 'patients'} in ${d.identifier}'s denominator: ${shownBands(
    d,
  )
    .map((b) => `${b.label}: ${b.count}`)
    .join(', ')}`;
}

/** CMS122's denominator by their most recent HbA1c in the period: horizontal bars (labels stay readable on a phone) and the counts in a table. */
export function Hba1cDistribution({ d, period }: { d: PanelHba1cDistributionJson; period: { start: string; end: string } }) {
  const narrow = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const bands = shownBands(d);
  const W = narrow ? 320 : 480;
  const LABEL = narrow ? 128 : 140;
  const ROW = 30;
  const H = bands.length * ROW + 8;
  const max = Math.max(1, ...bands.map((b) => b.count));
  const barMax = W - LABEL - 64;
  return (
    <Card component="section" aria-labelledby="hba1c-distribution-title">
      <CardContent>
        <Typography id="hba1c-distribution-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
          HbA1c of the panel
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          The {d.patients} {d.patients === 1 ? 'patient' : 'patients'} in {d.identifier}'s denominator (adults 18–75 with diabetes and a
          visit, exclusions included) by their most recent HbA1c from {formatDay(period.start)} to {formatDay(period.end)}, the lowest of
          that day. An IFCC result in mmol/mol is counted in %. Bands: below 7 %; 7 % up to but not including 8 %; 8 % to 9 % inclusive;
          above 9 % (the gap of CMS122 as CMS publishes it; a local version's cut-point is on its card).
        </Typography>
        {d.patients === 0 ? (
          <Typography>No patient is in {d.identifier}'s denominator in this period.</Typography>
        ) : (
          <Box
            sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 3fr) minmax(0, 2fr)' }, alignItems: 'start' }}
          >
            <Box
              component="svg"
              viewBox={`0 0 ${W} ${H}`}
              role="img"
              aria-label={distributionSummary(d)}
              data-testid="hba1c-distribution-chart"
              sx={{ width: '100%', height: 'auto', display: 'block' }}
            >
              {bands.map((b, i) => {
                const w = (b.count / max) * barMax;
                const cy = 4 + i * ROW + ROW / 2;
                return (
                  <g key={b.band}>
                    <text x={LABEL - 8} y={cy + 4} textAnchor="end" fontSize={13} fill="currentColor">
                      {b.label}
                    </text>
                    <rect x={LABEL} y={cy - 10} width={Math.max(w, b.count ? 2 : 0)} height={20} rx={2} fill={BAND_COLOR[b.band]} />
                    <text x={LABEL + w + 6} y={cy + 4} fontSize={13} fontWeight={600} fill="currentColor">
                      {b.count}
                    </text>
                  </g>
                );
              })}
              <line x1={LABEL} x2={LABEL} y1={0} y2={H} stroke="currentColor" strokeOpacity={0.4} />
            </Box>
            <Box
              component="table"
              aria-label="HbA1c bands"
              sx={{
                borderCollapse: 'collapse',
                fontSize: 14,
                width: '100%',
                '& th, & td': { py: 0.5, pr: 1.5, textAlign: 'left', borderBottom: 1, borderColor: 'divider' },
                '& thead th, & td': { whiteSpace: 'nowrap' },
                '& td': { textAlign: 'right' },
              }}
            >
              <thead>
                <tr>
                  <th scope="col">Most recent HbA1c</th>
                  <th scope="col" style={{ textAlign: 'right' }}>
                    Patients
                  </th>
                  <th scope="col" style={{ textAlign: 'right' }}>
                    Share
                  </th>
                </tr>
              </thead>
              <tbody>
                {bands.map((b) => (
                  <tr key={b.band}>
                    <th scope="row" style={{ fontWeight: 400 }}>
                      {b.range}
                    </th>
                    <td>{b.count}</td>
                    <td>{share(b.count, d.patients)}</td>
                  </tr>
                ))}
              </tbody>
            </Box>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
