import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { DataTable, List, useListContext } from 'react-admin';
import type { RecordImportJson, RecordImportStatus } from '@cds/contracts';
import { LoadingBlock } from '../../../components/StateViews';
import { ListError } from '../../components/ListError';
import { PageHeader } from '../../components/PageHeader';
import { MeasureRunsSection } from '../measure-runs/MeasureRunsSection';

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
  const caption = fetching
    ? 'Fetching the files…'
    : total === null
      ? 'No file was read'
      : `${done.toLocaleString()} of ${total.toLocaleString()} lines`;
  return (
    <Box sx={{ minWidth: 140 }}>
      <LinearProgress
        variant={fetching ? 'indeterminate' : 'determinate'}
        value={job.status === 'completed' ? 100 : pct}
        color={job.status === 'failed' ? 'error' : job.status === 'completed' ? 'success' : 'primary'}
        aria-label={`${done} of ${total ?? 'unknown'} lines read`}
      />
      <Typography variant="caption" color="text.secondary">
        {caption}
      </Typography>
    </Box>
  );
}

function Outcome({ job }: { job: RecordImportJson }) {
  if (job.status === 'failed')
    return (
      <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
        {job.failure ?? 'Failed'}: nothing was stored.
      </Typography>
    );
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

const statusChip = (job: RecordImportJson) => <Chip size="small" color={STATUS[job.status].color} label={STATUS[job.status].label} />;
const source = (job: RecordImportJson) => (job.inputs ? `${job.inputs.length} URL${job.inputs.length === 1 ? '' : 's'}` : 'Upload');
const EMPTY = (
  <Typography color="text.secondary" sx={{ p: 2 }}>
    No import yet. Send a panel&apos;s NDJSON to POST /api/fhir/$import (docs/integrations.md).
  </Typography>
);

/** On a phone, one block per import instead of a table five columns wide. */
function PhoneImports() {
  const { data, isPending } = useListContext<RecordImportJson>();
  if (isPending) return <LoadingBlock label="Loading imports" />;
  if (!data?.length) return EMPTY;
  return (
    <Stack
      component="ul"
      sx={{ listStyle: 'none', m: 0, p: 0 }}
      divider={<Box component="li" aria-hidden sx={{ borderTop: 1, borderColor: 'divider' }} />}
    >
      {data.map((job) => (
        <Stack
          component="li"
          key={job.id}
          spacing={1}
          sx={{ p: 2 }}
          aria-label={`Import of ${when(job.created_at)}: ${STATUS[job.status].label}`}
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            {statusChip(job)}
            <Typography variant="body2">{when(job.created_at)}</Typography>
            <Typography variant="body2" color="text.secondary">
              {source(job)}
            </Typography>
          </Stack>
          <ImportProgress job={job} />
          <Outcome job={job} />
        </Stack>
      ))}
    </Stack>
  );
}

const started = (job: RecordImportJson) => when(job.created_at);
const unfinished = (jobs: readonly RecordImportJson[] | undefined) => !!jobs?.some((j) => j.status === 'queued' || j.status === 'running');

/** The panel imports (`POST /api/fhir/$import`), newest first; refreshes every 2 s while one is unfinished. */
export default function RecordImportList() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
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
        error={<ListError title="The imports could not be loaded." />}
        queryOptions={{ refetchInterval: (query) => (unfinished(query.state.data?.data) ? 2000 : false) }}
      >
        {phone ? (
          <PhoneImports />
        ) : (
          <DataTable<RecordImportJson>
            bulkActionButtons={false}
            rowClick={false}
            empty={EMPTY}
            sx={{ '& th, & td:first-of-type, & td:nth-of-type(2), & td:nth-of-type(3)': { whiteSpace: 'nowrap' } }}
          >
            <DataTable.Col label="Started" render={started} />
            <DataTable.Col label="Source" render={source} />
            <DataTable.Col label="Status" render={statusChip} />
            <DataTable.Col label="Progress" render={(r: RecordImportJson) => <ImportProgress job={r} />} />
            <DataTable.Col label="Outcome" render={(r: RecordImportJson) => <Outcome job={r} />} />
          </DataTable>
        )}
      </List>
      <MeasureRunsSection />
    </>
  );
}
