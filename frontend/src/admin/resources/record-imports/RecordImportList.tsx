import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { DataTable, List } from 'react-admin';
import type { RecordImportJson, RecordImportStatus } from '@cds/contracts';
import { PageHeader } from '../../components/PageHeader';

const STATUS: Record<RecordImportStatus, { label: string; color: 'default' | 'info' | 'success' | 'error' }> = {
  queued: { label: 'Queued', color: 'default' },
  running: { label: 'Running', color: 'info' },
  completed: { label: 'Completed', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** How far the import has read: lines done of the total, as a bar and in words. */
export function ImportProgress({ job }: { job: RecordImportJson }) {
  const { done, total } = job.progress;
  const pct = total ? Math.round((100 * done) / total) : 0;
  const fetching = total === null && (job.status === 'queued' || job.status === 'running');
  return (
    <Box sx={{ minWidth: 140 }}>
      <LinearProgress
        variant={fetching ? 'indeterminate' : 'determinate'}
        value={job.status === 'completed' ? 100 : pct}
        color={job.status === 'failed' ? 'error' : job.status === 'completed' ? 'success' : 'primary'}
        aria-label={`${done} of ${total ?? 'unknown'} lines read`}
      />
      <Typography variant="caption" color="text.secondary">
        {fetching ? 'Fetching the files…' : `${done.toLocaleString()} of ${(total ?? 0).toLocaleString()} lines`}
      </Typography>
    </Box>
  );
}

function Outcome({ job }: { job: RecordImportJson }) {
  if (job.status === 'failed') return <Typography color="error">{job.failure ?? 'Failed'}: nothing was stored.</Typography>;
  const skipped = job.invalid
    ? `${job.invalid.toLocaleString()} line${job.invalid === 1 ? '' : 's'} skipped${job.errors[0] ? ` (line ${job.errors[0].line}: ${job.errors[0].diagnostics})` : ''}`
    : null;
  if (job.status === 'completed')
    return (
      <Typography variant="body2">
        {job.stored.toLocaleString()} resource{job.stored === 1 ? '' : 's'} stored{skipped ? `; ${skipped}` : ''}
      </Typography>
    );
  return (
    <Typography variant="body2" color="text.secondary">
      Stored together when every line is read{skipped ? `; so far ${skipped}` : ''}
    </Typography>
  );
}

const unfinished = (jobs: readonly RecordImportJson[] | undefined) => !!jobs?.some((j) => j.status === 'queued' || j.status === 'running');

/** The panel imports (`POST /api/fhir/$import`), newest first; refreshes every 2 s while one is unfinished. */
export default function RecordImportList() {
  return (
    <>
      <PageHeader
        title="Record imports"
        subtitle="Patients' records imported as NDJSON (POST /api/fhir/$import): each runs in the background, and its resources are stored together when it completes."
      />
      <List<RecordImportJson>
        title="Record imports"
        sort={{ field: 'created_at', order: 'DESC' }}
        actions={false}
        empty={false}
        queryOptions={{ refetchInterval: (query) => (unfinished(query.state.data?.data) ? 2000 : false) }}
      >
        <DataTable<RecordImportJson>
          bulkActionButtons={false}
          rowClick={false}
          empty={
            <Typography color="text.secondary" sx={{ p: 2 }}>
              No import yet. Send a panel&apos;s NDJSON to POST /api/fhir/$import (docs/integrations.md).
            </Typography>
          }
          sx={{ '& th, & td:first-of-type, & td:nth-of-type(2), & td:nth-of-type(3)': { whiteSpace: 'nowrap' } }}
        >
          <DataTable.Col label="Started" render={(r) => when(r.created_at)} />
          <DataTable.Col
            label="Source"
            render={(r) => (r.inputs ? `${r.inputs.length} URL${r.inputs.length === 1 ? '' : 's'}` : 'Upload')}
          />
          <DataTable.Col
            label="Status"
            render={(r) => <Chip size="small" color={STATUS[r.status].color} label={STATUS[r.status].label} />}
          />
          <DataTable.Col label="Progress" render={(r) => <ImportProgress job={r} />} />
          <DataTable.Col label="Outcome" render={(r) => <Outcome job={r} />} />
        </DataTable>
      </List>
    </>
  );
}
