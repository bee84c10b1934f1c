import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { MeasureImpactJson } from '@cds/contracts';

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
    </Box>
  );
}
