import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { MeasureVersionJson } from '@cds/contracts';
import { errorMessage } from '../../api';
import { formatDateTime } from '../../components/format';
import { useAdminQuery } from '../components/useAdminQuery';
import { adminApi } from '../providers/dataProvider';

const STATUS: Record<MeasureVersionJson['status'], { label: string; color: 'success' | 'info' | 'default' }> = {
  published: { label: 'Published', color: 'success' },
  draft: { label: 'Draft', color: 'info' },
  retired: { label: 'Retired', color: 'default' },
};

/** Who did the version's last step, and when: published, else last saved; version 1 is the CMS definition as shipped. */
function who(v: MeasureVersionJson): string {
  if (v.source === 'shipped') return 'Shipped with the product (CMS)';
  const step = v.published ?? v.updated ?? v.created;
  const verb = v.published ? 'Published' : 'Saved';
  return step ? `${verb} by ${step.email ?? 'a removed user'}` : '';
}
const when = (v: MeasureVersionJson) => formatDateTime((v.published ?? v.updated ?? v.created)?.at ?? null) || '—';

/** A measure's versions, newest first: its draft, the local versions published and retired, and version 1 as shipped. */
export function MeasureVersions({ measureId, phone }: { measureId: string; phone: boolean }) {
  const q = useAdminQuery(['measure-designs', measureId, 'versions'], () => adminApi.measureVersions(measureId));
  if (q.isPending) return <Skeleton height={160} />;
  if (q.error || !q.data) return <Alert severity="error">{errorMessage(q.error, 'The versions could not be loaded.')}</Alert>;
  const status = (v: MeasureVersionJson) => <Chip size="small" color={STATUS[v.status].color} label={STATUS[v.status].label} />;
  if (phone)
    return (
      <Box component="ul" aria-label="Versions" sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {q.data.map((v) => (
          <Box component="li" key={v.version} sx={{ py: 1.5, borderTop: 1, borderColor: 'divider' }}>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                Version {v.label}
              </Typography>
              {status(v)}
            </Box>
            <Typography variant="body2" color="text.secondary">
              {[who(v), (v.published ?? v.updated ?? v.created) && when(v)].filter(Boolean).join(' · ')}
            </Typography>
            {v.note && <Typography variant="body2">{v.note}</Typography>}
          </Box>
        ))}
      </Box>
    );
  return (
    <Table size="small" aria-label="Versions">
      <TableHead>
        <TableRow>
          <TableCell>Version</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Who</TableCell>
          <TableCell>When</TableCell>
          <TableCell>Change note</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {q.data.map((v) => (
          <TableRow key={v.version}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{v.label}</TableCell>
            <TableCell>{status(v)}</TableCell>
            <TableCell>{who(v)}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(v)}</TableCell>
            <TableCell>{v.note ?? (v.source === 'shipped' ? 'The measure as CMS specifies it' : '—')}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
