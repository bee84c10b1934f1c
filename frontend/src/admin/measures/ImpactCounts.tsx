import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { MeasureImpactJson } from '@cds/contracts';
import type { ProgressWords } from '../resources/rules/ImpactPreviewProgress';

/** What a measure draft's preview says before the first count (the stored results are read first) and after the last. */
export const MEASURE_PROGRESS_WORDS: ProgressWords = {
  reading: 'Reading the measure and its stored results...',
  finishing: 'naming the patients who change...',
};

const count = (n: number) => n.toLocaleString('en-US');

/** Where "Now" came from: stored results current for the measure's version and period, or evaluated for this preview. */
export function currentFromText({ stored, evaluated }: MeasureImpactJson['current_from']): string {
  if (!stored) return `Now: all ${count(evaluated)} patients evaluated now (no current stored results; a measure run stores them).`;
  return `Now: ${count(stored)} patients from stored results (the last measure run or Panel load), ${count(evaluated)} evaluated now.`;
}

/** Patients per population, now and with the draft (the preview's table, and the publish dialog's). */
export function ImpactCounts({ r }: { r: MeasureImpactJson }) {
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Patients per population, now and with the draft">
        <TableHead>
          <TableRow>
            <TableCell>Population</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              Now
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              With the draft
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {r.counts.map((c) => (
            <TableRow key={c.population}>
              <TableCell>{c.label}</TableCell>
              <TableCell align="right">{c.before}</TableCell>
              <TableCell align="right" sx={{ fontWeight: c.before === c.after ? 400 : 700 }}>
                {c.after}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        {currentFromText(r.current_from)}
      </Typography>
    </Box>
  );
}
