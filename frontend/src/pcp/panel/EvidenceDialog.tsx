import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import AssignmentIcon from '@mui/icons-material/Assignment';
import { useNavigate } from 'react-router-dom';
import type { PanelHistoryJson, PanelInputJson, PanelPatientMeasureJson, PanelPopulationJson, PanelStatus } from '@cds/contracts';
import { getPanelPatient, startPanelAssessment } from '../../api/endpoints';
import { ResultHistories } from '../../components/charts/ResultHistories';
import { ErrorBlock } from '../../components/StateViews';
import { useAsync } from '../../components/useAsync';
import { errorMessage } from '../../api';
import { formatDay, STATUS_LABEL } from './panelFormat';

const STATUS_COLOR: Record<PanelStatus, 'success' | 'error' | 'default' | 'warning'> = {
  met: 'success',
  gap: 'error',
  excluded: 'default',
  undetermined: 'warning',
};

export function StatusChip({ status }: { status: PanelStatus | null }) {
  if (!status) return <Chip size="small" variant="outlined" label="Not in this measure" />;
  return <Chip size="small" color={STATUS_COLOR[status]} label={STATUS_LABEL[status]} />;
}

function stateText(p: PanelPopulationJson): string {
  return p.state === 'undetermined' ? 'Not determined' : p.state ? 'Yes' : 'No';
}

function Input({ input }: { input: PanelInputJson }) {
  return (
    <Box component="li" sx={{ mb: 1.5 }}>
      <Typography variant="body2">
        <strong>{input.display_name}:</strong> {input.answer}
      </Typography>
      {input.evidence.length > 0 && (
        <Box component="ul" sx={{ pl: 2.5, my: 0.5 }} aria-label={`Evidence for ${input.display_name}`}>
          {input.evidence.map((e, i) => (
            <Typography component="li" variant="body2" color="text.secondary" key={`${e.resource_type}/${e.id ?? i}`}>
              {formatDay(e.at)} · {e.what ?? e.resource_type}
              {e.value ? ` · ${e.value}` : ''}{' '}
              <Typography component="span" variant="caption" color="text.secondary">
                ({e.resource_type}
                {e.id ? `/${e.id}` : ''})
              </Typography>
            </Typography>
          ))}
        </Box>
      )}
      {input.set_aside.map((s) => (
        <Typography key={s} variant="body2" color="warning.main">
          Set aside: {s}
        </Typography>
      ))}
    </Box>
  );
}

function Population({ p }: { p: PanelPopulationJson }) {
  return (
    <Box sx={{ mb: 1.5 }}>
      <Typography variant="subtitle2" component="h4">
        {p.label}: {stateText(p)}
      </Typography>
      {p.rules.length > 0 && (
        <Typography variant="body2" color="text.secondary">
          Because: {p.rules.join('; ')}
        </Typography>
      )}
      {p.code === 'denominator' && p.inputs.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          Everyone in the initial population.
        </Typography>
      ) : p.state === false ? (
        // Nothing in the record made it true: what was checked, in one line, rather than a list of "No".
        <Typography variant="body2" color="text.secondary">
          Checked: {p.inputs.map((i) => `${i.display_name} (${i.answer})`).join('; ')}.
        </Typography>
      ) : (
        <Box component="ul" sx={{ pl: 2.5, my: 0.5 }}>
          {p.inputs.map((i) => (
            <Input key={i.parameter_id} input={i} />
          ))}
        </Box>
      )}
    </Box>
  );
}

function Measure({ m }: { m: PanelPatientMeasureJson }) {
  const inMeasure = m.status !== null;
  return (
    <Box component="section" aria-label={`${m.identifier} ${m.title}`} sx={{ py: 1.5 }}>
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap sx={{ mb: 0.5 }}>
        <Typography variant="h3" sx={{ fontSize: '1.05rem' }}>
          {m.title}{' '}
          <Typography component="span" color="text.secondary">
            ({m.identifier})
          </Typography>
        </Typography>
        <StatusChip status={m.status} />
      </Stack>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {m.reason}
      </Typography>
      {m.local_version && (
        <Typography variant="body2" color="warning.dark" sx={{ mb: 1 }}>
          Local version {m.local_version.label} of {m.identifier}, not the CMS measure as specified: {m.local_version.note}
        </Typography>
      )}
      {inMeasure ? m.populations.map((p) => <Population key={p.code} p={p} />) : <Population p={m.populations[0]} />}
    </Box>
  );
}

/**
 * One patient's evidence: for each measure, where they stand and why, each population with the rules
 * that hold and the resources (dates and values) its inputs read; "Start assessment" opens the clinical
 * form with the record's latest values offered.
 */
export function EvidenceDialog(props: {
  patientId: string;
  measureId: string;
  period: { start: string; end: string };
  onClose: () => void;
}) {
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const navigate = useNavigate();
  const { data, error, loading, reload } = useAsync(() => getPanelPatient(props.patientId, props.period), [props.patientId]);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<unknown>(null);
  // The measure the row was about comes first.
  const measures = data ? [...data.measures].sort((a, b) => Number(b.id === props.measureId) - Number(a.id === props.measureId)) : [];

  const start = async () => {
    setStarting(true);
    setStartError(null);
    try {
      const { url } = await startPanelAssessment(props.patientId);
      navigate(url);
    } catch (e) {
      setStartError(e);
      setStarting(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="evidence-title">
      <DialogTitle id="evidence-title">
        {data ? data.patient.name : 'Patient evidence'}
        {data && (
          <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
            Born {formatDay(data.patient.birth_date)}
            {data.patient.age !== null ? ` · ${data.patient.age} years at the period's end` : ''}
            {data.patient.gender ? ` · ${data.patient.gender}` : ''} · Period {formatDay(data.period.start)} – {formatDay(data.period.end)}
          </Typography>
        )}
      </DialogTitle>
      {/* Focusable so the evidence scrolls from the keyboard too. */}
      <DialogContent dividers tabIndex={0} role="region" aria-label="Evidence by measure">
        {loading && (
          <Box role="status" aria-label="Loading the patient's evidence">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={32} />
            ))}
          </Box>
        )}
        {!loading && error ? <ErrorBlock title="Could not load this patient's evidence." error={error} onRetry={reload} /> : null}
        {!loading &&
          data &&
          measures.map((m, i) => (
            <Box key={m.id}>
              {i > 0 && <Divider />}
              <Measure m={m} />
            </Box>
          ))}
        {!loading && data && (data.histories ?? []).length > 0 && <Histories histories={data.histories} />}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {startError ? (
          <Alert severity="error" sx={{ flex: '1 1 100%' }}>
            Could not start the assessment. {errorMessage(startError, 'Please try again.')}
          </Alert>
        ) : null}
        <Button onClick={props.onClose}>Close</Button>
        <Button variant="contained" startIcon={<AssignmentIcon />} onClick={() => void start()} disabled={starting || !data}>
          Start assessment
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The tests the measures read, over time: a plot where there are two results or more, else the one result in words. */
function Histories({ histories }: { histories: readonly PanelHistoryJson[] }) {
  return (
    <Box component="section" aria-labelledby="histories-title" sx={{ mt: 2 }}>
      <Divider sx={{ mb: 2 }} />
      <Typography id="histories-title" variant="h6" component="h3" gutterBottom>
        Results over time
      </Typography>
      <ResultHistories histories={histories} />
    </Box>
  );
}
