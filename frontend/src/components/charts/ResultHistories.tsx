import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ResultHistoryJson } from '@cds/contracts';
import { formatNumber } from '../findings/clinicalFormat';
import { HistoryChart, shortDate } from './HistoryChart';

/** "75 mmol/mol (≈ 9 %)" for a result plotted after conversion, else "9 %". */
export function resultText(p: ResultHistoryJson['points'][number], unit: string): string {
  const plotted = unit ? `${formatNumber(p.value)} ${unit}` : formatNumber(p.value);
  return p.entered ? `${p.entered} (≈ ${plotted})` : plotted;
}

/**
 * Results over time, one block per test or parameter: a plot where there are two results or more, else
 * the one result in words, and nothing for none; results that could not be plotted are counted.
 * The Panel's evidence and the case detail show a record's history the same way.
 */
export function ResultHistories({ histories }: { histories: readonly ResultHistoryJson[] }) {
  return (
    <Stack spacing={3}>
      {histories.map((h) => (
        <Box key={h.title}>
          {h.points.length >= 2 ? (
            <HistoryChart title={h.title} unit={h.unit} points={h.points} thresholds={h.thresholds} />
          ) : h.points.length === 1 ? (
            <Typography variant="body2">
              {h.title}: one result, {resultText(h.points[0], h.unit)} on {shortDate(h.points[0].at)}
            </Typography>
          ) : null}
          {h.not_plotted > 0 && (
            <Typography variant="body2" color="text.secondary">
              {h.not_plotted} {h.title} result{h.not_plotted === 1 ? '' : 's'} not plotted (another unit, a comparator such as "&lt; 15", or
              no number).
            </Typography>
          )}
        </Box>
      ))}
    </Stack>
  );
}
