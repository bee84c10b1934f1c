import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface PeriodBar {
  /** "Nov 1, 2026": the period's first day. */
  label: string;
  completed: number;
  matched: number;
}

/**
 * Assessments per period and how many this rule set matched, as grouped bars over time. The table
 * under it keeps every figure (and the no-match rate) for screen readers and exact reading.
 */
export default function PeriodTrendChart({ periods, label }: { periods: readonly PeriodBar[]; label: string }) {
  const theme = useTheme();
  if (!periods.length) return null;
  const text = theme.palette.text.secondary;
  return (
    <Box role="img" aria-label={label} data-testid="period-trend-chart" sx={{ width: '100%', height: 260, mb: 2 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={[...periods]} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fill: text, fontSize: 12 }} interval="preserveStartEnd" minTickGap={12} />
          <YAxis allowDecimals={false} tick={{ fill: text, fontSize: 12 }} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 13 }} />
          <Bar dataKey="completed" name="Assessments" fill={theme.palette.secondary.main} isAnimationActive={false} />
          <Bar dataKey="matched" name="Matched here" fill={theme.palette.primary.main} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </Box>
  );
}
