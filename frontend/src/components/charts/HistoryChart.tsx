import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { formatNumber } from '../findings/clinicalFormat';

export interface HistoryPoint {
  /** ISO date or date-time of the result. */
  at: string;
  value: number;
  /** The result as entered when it was in another unit ("75 mmol/mol"): listed first, the plotted value marked ≈. */
  entered?: string;
}

export interface HistoryThreshold {
  value: number;
  label: string;
}

const PAD = { left: 52, right: 16, top: 16, bottom: 36 };

const day = (iso: string) => iso.slice(0, 10);
/** "Mar 4, 2026": the day of an ISO date or date-time, in UTC so it never moves with the viewer's time zone. */
export const shortDate = (iso: string) =>
  new Date(`${day(iso)}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * One parameter's results over time, as a physician reads a lab history: each result a dot at its
 * date, joined in time order, with the guideline's cut-points as dashed lines. The same values are
 * listed under the plot, so nothing is only in the picture.
 */
export function HistoryChart({
  title,
  unit,
  points,
  thresholds = [],
}: {
  title: string;
  /** Readable unit ("mmHg", "%"), shown with every value. */
  unit: string;
  points: readonly HistoryPoint[];
  thresholds?: readonly HistoryThreshold[];
}) {
  // A phone draws the plot in fewer units, so its text stays as large as the page's.
  const narrow = useMediaQuery('(max-width:599.95px)');
  const W = narrow ? 320 : 600;
  const H = narrow ? 200 : 220;
  const sorted = [...points]
    .filter((p) => Number.isFinite(p.value) && !Number.isNaN(Date.parse(p.at)))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const withUnit = (v: number) => (unit ? `${formatNumber(v)} ${unit}` : formatNumber(v));
  if (sorted.length < 2) return null;
  const times = sorted.map((p) => Date.parse(p.at));
  const values = [...sorted.map((p) => p.value), ...thresholds.map((t) => t.value)];
  const t0 = times[0];
  const t1 = times[times.length - 1] === t0 ? t0 + 86_400_000 : times[times.length - 1];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || Math.abs(hi) || 1;
  const v0 = lo - span * 0.1;
  const v1 = hi + span * 0.1;
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - v0) / (v1 - v0)) * (H - PAD.top - PAD.bottom);
  const path = sorted.map((p, i) => `${i ? 'L' : 'M'}${x(Date.parse(p.at)).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  const summary = `${title}: ${sorted.length} results from ${shortDate(first.at)} (${withUnit(first.value)}) to ${shortDate(last.at)} (${withUnit(last.value)})`;

  return (
    <Box component="figure" sx={{ m: 0 }} data-testid="history-chart">
      <Typography component="figcaption" variant="subtitle2" gutterBottom>
        {title} over time
      </Typography>
      <Box
        component="svg"
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={summary}
        sx={{ width: '100%', height: 'auto', display: 'block' }}
      >
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={H - PAD.bottom} stroke="currentColor" strokeOpacity={0.4} />
        <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} stroke="currentColor" strokeOpacity={0.4} />
        {[lo, hi].map((v) => (
          <text key={`v${v}`} x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize={12} fill="currentColor">
            {formatNumber(v)}
          </text>
        ))}
        <text x={PAD.left} y={H - 12} fontSize={12} fill="currentColor">
          {shortDate(first.at)}
        </text>
        <text x={W - PAD.right} y={H - 12} fontSize={12} textAnchor="end" fill="currentColor">
          {shortDate(last.at)}
        </text>
        <path d={path} fill="none" stroke="#1d4ed8" strokeWidth={2} />
        {sorted.map((p) => (
          <circle key={`${p.at}-${p.value}`} cx={x(Date.parse(p.at))} cy={y(p.value)} r={4} fill="#1d4ed8" />
        ))}
        {thresholds.map((t) => (
          <g key={`t${t.value}`}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t.value)} y2={y(t.value)} stroke="#b45309" strokeDasharray="6 4" />
            <text
              x={W - PAD.right - 4}
              y={y(t.value) - 4}
              textAnchor="end"
              fontSize={11}
              fill="#92400e"
              stroke="#fff"
              strokeWidth={3}
              paintOrder="stroke"
            >
              {t.label}
            </text>
          </g>
        ))}
      </Box>
      <Box component="table" sx={{ mt: 1, borderCollapse: 'collapse', fontSize: 14, '& td, & th': { pr: 2, py: 0.25, textAlign: 'left' } }}>
        <caption style={{ position: 'absolute', left: -10000 }}>{title} results</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">{title}</th>
          </tr>
        </thead>
        <tbody>
          {[...sorted].reverse().map((p) => (
            <tr key={`${p.at}-${p.value}`}>
              <td>{shortDate(p.at)}</td>
              <td>{p.entered ? `${p.entered} (≈ ${withUnit(p.value)})` : withUnit(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}
