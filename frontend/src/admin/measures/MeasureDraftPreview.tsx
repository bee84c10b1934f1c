import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { MeasureDesignJson, MeasureImpactJson } from '@cds/contracts';
import { errorMessage } from '../../api';
import { adminApi } from '../providers/dataProvider';
import type { ImpactProgress } from '../providers/impactPreviewStream';
import { ImpactPreviewProgress } from '../resources/rules/ImpactPreviewProgress';
import { ImpactCounts, MEASURE_PROGRESS_WORDS } from './ImpactCounts';
import { MeasureDraftActions } from './MeasureDraftActions';
import { CutPointField } from './CutPointField';
import type { MeasureDraftState } from './measureDraft';

function Impact({ r }: { r: MeasureImpactJson }) {
  const same = r.versions.draft === r.versions.current;
  return (
    <Stack spacing={2} component="section" aria-label="Impact of the draft">
      <Alert severity={r.changed ? 'warning' : 'success'}>
        {r.changed
          ? `${r.changed} of ${r.patients} stored patients would change population for ${r.period.start} to ${r.period.end}.`
          : `No stored patient (of ${r.patients}) would change population for ${r.period.start} to ${r.period.end}.`}{' '}
        {same
          ? 'The draft is the current version.'
          : `As a measure version the draft would be ${r.versions.draft}; results stored under ${r.versions.current} would not count for it.`}
      </Alert>
      <ImpactCounts r={r} />
      {r.analysis.findings.map((f, i) => (
        <Alert key={`${f.code}-${i}`} severity={f.severity}>
          <strong>{f.population}:</strong> {f.message}
        </Alert>
      ))}
      {r.changed > 0 && (
        <Box component="ul" aria-label="Patients who would change population" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
          {r.changed_patients.map((p) => (
            <Box component="li" key={p.patient_id} sx={{ py: 1, borderTop: 1, borderColor: 'divider' }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {p.name}
              </Typography>
              <Typography variant="body2">{p.changes.join('; ')}</Typography>
            </Box>
          ))}
          {r.changed > r.changed_patients.length && (
            <Typography component="li" variant="body2" color="text.secondary">
              and {r.changed - r.changed_patients.length} more
            </Typography>
          )}
        </Box>
      )}
    </Stack>
  );
}

/**
 * The measure's draft of population rules (a cut-point changed, a rule left out), started from the published version
 * or the saved draft: its impact over the stored records, and Save, Discard and Publish. Record criteria and value
 * sets stay as shipped.
 */
export function MeasureDraftPreview({ d, draft }: { d: MeasureDesignJson; draft: MeasureDraftState }) {
  const { rules, payload, dirty } = draft;
  const [period, setPeriod] = useState({ start: d.measurement_period.start, end: d.measurement_period.end });
  const [state, setState] = useState<{ loading: boolean; result: MeasureImpactJson | null; error: unknown }>({
    loading: false,
    result: null,
    error: null,
  });
  const [progress, setProgress] = useState<ImpactProgress | null>(null);
  const run = () => {
    setState({ loading: true, result: null, error: null });
    setProgress(null);
    adminApi
      .measureImpact(d.id, { rules: payload, periodStart: period.start, periodEnd: period.end }, setProgress)
      .then((result) => setState({ loading: false, result, error: null }))
      .catch((error: unknown) => setState({ loading: false, result: null, error }));
  };
  const label = (code: string) => d.populations.find((p) => p.code === code)?.label ?? code;
  return (
    <Stack spacing={2}>
      <Alert severity="info">
        {d.draft
          ? `Draft version ${d.draft.label}, saved ${d.draft.updated?.email ? `by ${d.draft.updated.email}` : ''} (revision ${d.draft.revision}). `
          : `Editing from version ${d.published.label}. `}
        Change a cut-point or leave a rule out, then preview which stored patients would change population. The measure in use changes only
        when a saved draft is published.
      </Alert>
      <MeasureDraftActions d={d} rules={payload} dirty={dirty} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label="Period start"
          type="date"
          size="small"
          value={period.start}
          onChange={(e) => setPeriod((p) => ({ ...p, start: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="Period end"
          type="date"
          size="small"
          value={period.end}
          onChange={(e) => setPeriod((p) => ({ ...p, end: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      {rules.map((r, i) => (
        <Paper
          key={r.id}
          variant="outlined"
          sx={{ p: 1.5, opacity: r.included ? 1 : 0.6 }}
          aria-label={`Draft rule ${r.name}`}
          component="section"
        >
          <FormControlLabel
            control={<Checkbox checked={r.included} onChange={(e) => draft.setIncluded(i, e.target.checked)} />}
            label={
              <Typography variant="body2">
                <strong>{label(r.population)}:</strong> {r.name}
              </Typography>
            }
          />
          <Stack spacing={1} sx={{ pl: 4 }}>
            {r.conditions.map((_, j) =>
              typeof r.worded[j] === 'number' ? (
                <CutPointField key={j} r={r} j={j} onChange={(v) => draft.setCutPoint(i, j, v)} />
              ) : (
                <Typography key={j} variant="body2">
                  {r.texts[j]}
                </Typography>
              ),
            )}
          </Stack>
        </Paper>
      ))}
      <Box>
        <Button
          variant="contained"
          onClick={run}
          disabled={state.loading}
          startIcon={state.loading ? <CircularProgress size={16} /> : null}
        >
          Preview impact
        </Button>
      </Box>
      {state.loading && <ImpactPreviewProgress progress={progress} words={MEASURE_PROGRESS_WORDS} />}
      {state.error ? <Alert severity="error">{errorMessage(state.error, 'The impact preview is unavailable right now.')}</Alert> : null}
      {state.result && <Impact r={state.result} />}
    </Stack>
  );
}
