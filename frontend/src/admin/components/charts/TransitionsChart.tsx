import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { Bar, BarChart, LabelList, ResponsiveContainer, XAxis, YAxis } from 'recharts';

export interface TransitionBar {
  /** "Prediabetes → Type 2 diabetes": the primary recommendation before and after. */
  label: string;
  count: number;
}

/** Height of one transition: its words above (in the gap), then the bar. */
const ROW = 46;
/** Pixels above and below each bar inside its row; the words sit in the upper one. */
const GAP = 14;
const TOP = 18;

/**
 * Patients moving between primary recommendations, one horizontal bar per transition, largest
 * first. Each bar's words sit above it across the full width, so a phone reads them whole; the
 * count is at the bar's end. The table beside it holds the same figures for screen readers.
 */
export default function TransitionsChart({ bars, label }: { bars: readonly TransitionBar[]; label: string }) {
  const theme = useTheme();
  const data = [...bars].sort((a, b) => b.count - a.count);
  if (!data.length) return null;
  const text = theme.palette.text.primary;
  return (
    <Box role="img" aria-label={label} data-testid="transitions-chart" sx={{ width: '100%', height: data.length * ROW + TOP + 4, mt: 1 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: TOP, right: 48, bottom: 0, left: 0 }} barCategoryGap={GAP}>
          <XAxis type="number" hide domain={[0, 'dataMax']} allowDecimals={false} />
          <YAxis type="category" dataKey="label" hide />
          <Bar dataKey="count" fill={theme.palette.warning.main} isAnimationActive={false} radius={[0, 3, 3, 0]} minPointSize={2}>
            <LabelList
              dataKey="label"
              content={({ x, y, value }) => (
                <text x={Number(x)} y={Number(y) - 5} fill={text} fontSize={13}>
                  {String(value)}
                </text>
              )}
            />
            <LabelList dataKey="count" position="right" fill={text} fontSize={13} formatter={(v) => Number(v).toLocaleString('en-US')} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </Box>
  );
}
