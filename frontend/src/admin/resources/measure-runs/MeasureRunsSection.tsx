import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import type { MeasureRunJson, MeasureRunStatus } from '@cds/contracts';
import { errorMessage } from '../../../api';
import { useAdminQuery } from '../../components/useAdminQuery';
import { adminApi } from '../../providers/dataProvider';

const STATUS: Record<MeasureRunStatus, { label: string; color: 'default' | 'info' | 'success' | 'error' }> = {
  queued: { label: 'Queued', color: 'default' },
  running: { label: 'Running', color: 'info' },
  completed: { label: 'Completed', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const n = (v: number) => v.toLocaleString();

/** What a finished run did, in words: how many patients were evaluated, and how many stored results were still current. */
export function runOutcome(run: MeasureRunJson): string {
  if (run.status === 'failed') return `${run.failure ?? 'Failed'}. The results stored before it stopped are kept.`;
  const current = run.progress.done - run.evaluated;
  const evaluated = `${n(run.evaluated)} patient${run.evaluated === 1 ? '' : 's'} evaluated`;
  if (run.status === 'completed') return `${evaluated}; ${n(current)} unchanged since their stored result`;
  return `${evaluated} so far`;
}

function RunRow({ run }: { run: MeasureRunJson }) {
  const { done, total } = run.progress;
  const pct = total ? Math.round((100 * done) / total) : 0;
  return (
    <Stack
      component="li"
      spacing={1}
      sx={{ py: 1.5, borderTop: 1, borderColor: 'divider' }}
      aria-label={`Measure run of ${when(run.created_at)}: ${STATUS[run.status].label}`}
    >
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.5 }}>
        <Chip size="small" color={STATUS[run.status].color} label={STATUS[run.status].label} />
        <Typography variant="body2">{when(run.created_at)}</Typography>
        <Typography variant="body2" color="text.secondary">
          Period {run.period.start} to {run.period.end} · {run.measure_ids.length} measure{run.measure_ids.length === 1 ? '' : 's'}
          {run.trend ? ', with the score by month' : ''}
        </Typography>
      </Stack>
      <Box sx={{ maxWidth: 480 }}>
        <LinearProgress
          variant={total === null ? 'indeterminate' : 'determinate'}
          value={run.status === 'completed' ? 100 : pct}
          color={run.status === 'failed' ? 'error' : run.status === 'completed' ? 'success' : 'primary'}
          aria-label={`${done} of ${total ?? 'unknown'} patients`}
        />
        <Typography variant="caption" color="text.secondary">
          {total === null ? 'Counting the patients…' : `${n(done)} of ${n(total)} patients`}
        </Typography>
      </Box>
      <Typography variant="body2" color={run.status === 'failed' ? 'error' : 'text.primary'}>
        {runOutcome(run)}
      </Typography>
    </Stack>
  );
}

/**
 * Population runs beside the record imports: start one for the current year, follow its progress. A run stores
 * each patient's result per measure version, so the Panel and summary reports read them at once afterwards.
 */
export function MeasureRunsSection() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const runs = useAdminQuery(['measure-runs'], adminApi.measureRuns, {
    refetchInterval: 2000,
  });
  const start = useMutation({
    mutationFn: adminApi.startMeasureRun,
    onSuccess: () => {
      notify('Measure run started', { type: 'info' });
      void queryClient.invalidateQueries({ queryKey: ['measure-runs'] });
    },
    onError: (e) => notify(errorMessage(e, 'The measure run could not be started'), { type: 'error' }),
  });
  const list = runs.data ?? [];
  return (
    <Box component="section" aria-labelledby="measure-runs-title" sx={{ mt: 4 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1 }}
      >
        <Box>
          <Typography id="measure-runs-title" component="h2" variant="h5">
            Measure runs
          </Typography>
          <Typography color="text.secondary" variant="body2">
            The quality measures over every patient for this year and for the Panel&apos;s score by month, stored so the Panel opens at
            once. Patients whose record is unchanged since their stored result are not evaluated again.
          </Typography>
        </Box>
        <Button variant="contained" onClick={() => start.mutate()} disabled={start.isPending} sx={{ flexShrink: 0 }}>
          Run the measures for this year
        </Button>
      </Stack>
      {runs.error ? (
        <Typography color="error">{errorMessage(runs.error, 'Measure runs are unavailable right now.')}</Typography>
      ) : !runs.isPending && !list.length ? (
        <Typography color="text.secondary">No measure run yet.</Typography>
      ) : (
        <Stack component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {list.map((r) => (
            <RunRow key={r.id} run={r} />
          ))}
        </Stack>
      )}
    </Box>
  );
}
