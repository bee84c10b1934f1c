import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import type { MeasureDesignJson, MeasureDraftRuleJson, MeasureImpactJson } from '@cds/contracts';
import { errorMessage } from '../../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ADMIN_TOASTS } from '../messages';
import { adminApi } from '../providers/dataProvider';
import type { ImpactProgress } from '../providers/impactPreviewStream';
import { useToast } from '../providers/useToast';
import { ImpactPreviewProgress } from '../resources/rules/ImpactPreviewProgress';
import { ImpactCounts, MEASURE_PROGRESS_WORDS } from './ImpactCounts';

const NOTE_MAX = 1000;

/**
 * Publishing the saved draft: its impact over the stored records first (the counts per population, now and with
 * the draft), then a required change note that every report naming the local version shows.
 */
function PublishDialog({ d, onClose }: { d: MeasureDesignJson; onClose: () => void }) {
  const draft = d.draft!;
  const [impact, setImpact] = useState<{ result: MeasureImpactJson | null; error: unknown }>({ result: null, error: null });
  const [progress, setProgress] = useState<ImpactProgress | null>(null);
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const queryClient = useQueryClient();
  useEffect(() => {
    adminApi
      .measureImpact(d.id, { rules: draft.rules }, setProgress)
      .then((result) => setImpact({ result, error: null }))
      .catch((e: unknown) => setImpact({ result: null, error: e }));
  }, [d.id, draft.rules]);
  const publish = async () => {
    setBusy(true);
    setError(null);
    try {
      const v = await adminApi.publishMeasureDraft(d.id, { note: note.trim(), draft_revision: draft.revision });
      toast(ADMIN_TOASTS.measurePublished(d.identifier, v.label));
      void queryClient.invalidateQueries({ queryKey: ['measure-designs'] });
      onClose();
    } catch (e) {
      setError(errorMessage(e, 'Publishing failed. Please try again.'));
      toast({ title: 'Error', description: errorMessage(e, 'Publishing failed. Please try again.') });
    } finally {
      setBusy(false);
    }
  };
  const noteMissing = !note.trim();
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="measure-publish-title" maxWidth="sm" fullWidth>
      <DialogTitle id="measure-publish-title">
        Publish version {draft.label} of {d.identifier}
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="body2">
            From then on the Panel, $evaluate-measure, measure runs and the gap cards read this version. It is a local version of{' '}
            {d.identifier}, no longer the measure as CMS specifies it, and every report says so with your note. Results stored under version{' '}
            {d.published.label} stop counting.
          </Typography>
          {!impact.result && !impact.error && <ImpactPreviewProgress progress={progress} words={MEASURE_PROGRESS_WORDS} />}
          {impact.error ? <Alert severity="error">{errorMessage(impact.error, 'The impact preview could not run.')}</Alert> : null}
          {impact.result && (
            <>
              <Alert severity={impact.result.changed ? 'warning' : 'info'}>
                {impact.result.changed} of {impact.result.patients} stored patients change population for {impact.result.period.start} to{' '}
                {impact.result.period.end}.
              </Alert>
              <ImpactCounts r={impact.result} />
            </>
          )}
          <TextField
            label="Change note"
            required
            multiline
            minRows={2}
            value={note}
            onChange={(e) => setNote(e.target.value.slice(0, NOTE_MAX))}
            onBlur={() => setTouched(true)}
            error={touched && noteMissing}
            helperText={
              touched && noteMissing ? 'Say what changed and why: reports of this version show it.' : `${note.length}/${NOTE_MAX}`
            }
          />
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} color="secondary">
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={() => void publish()}
          disabled={busy || noteMissing || !impact.result}
          startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {busy ? 'Publishing...' : 'Publish'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Why a button cannot act, said in the page (a disabled button gets no hover, and a phone has none). */
const Reason = ({ id, text }: { id: string; text: string }) => (
  <Typography id={id} variant="caption" color="text.secondary" component="p">
    {text}
  </Typography>
);

/** Save draft, Discard draft and Publish for the measure's one draft, each disabled with the reason when it cannot act. */
export function MeasureDraftActions({ d, rules, dirty }: { d: MeasureDesignJson; rules: MeasureDraftRuleJson[]; dirty: boolean }) {
  const [busy, setBusy] = useState<'save' | 'discard' | null>(null);
  const [discarding, setDiscarding] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const toast = useToast();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['measure-designs'] });
  const save = async () => {
    setBusy('save');
    try {
      const v = await adminApi.saveMeasureDraft(d.id, { rules, draft_revision: d.draft?.revision ?? null });
      toast(ADMIN_TOASTS.measureDraftSaved(d.identifier, v.label));
      void refresh();
    } catch (e) {
      // 409: someone saved, discarded or published the draft since this page read it; the message says which.
      toast({ title: 'Error', description: errorMessage(e, 'The draft could not be saved. Please try again.') });
    } finally {
      setBusy(null);
    }
  };
  const discard = async () => {
    setBusy('discard');
    try {
      await adminApi.discardMeasureDraft(d.id, d.draft!.revision);
      toast(ADMIN_TOASTS.measureDraftDiscarded(d.identifier));
      setDiscarding(false);
      void refresh();
    } catch (e) {
      toast({ title: 'Error', description: errorMessage(e, 'The draft could not be discarded. Please try again.') });
    } finally {
      setBusy(null);
    }
  };
  const saveReason = dirty
    ? null
    : d.draft
      ? 'Nothing to save: the draft is as saved.'
      : 'Change a cut-point or leave a rule out to start a draft.';
  const discardReason = d.draft ? null : 'No draft is saved.';
  const publishReason = !d.draft
    ? 'Save the draft before publishing it.'
    : dirty
      ? 'Save your changes first: the saved draft is what is published.'
      : null;
  return (
    <Box component="section" aria-label="Draft actions">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <Box>
          <Button
            variant="outlined"
            onClick={() => void save()}
            disabled={!!saveReason || !!busy}
            aria-describedby={saveReason ? 'save-draft-reason' : undefined}
            startIcon={busy === 'save' ? <CircularProgress size={16} aria-hidden="true" /> : undefined}
          >
            Save draft
          </Button>
          {saveReason && <Reason id="save-draft-reason" text={saveReason} />}
        </Box>
        <Box>
          <Button
            color="error"
            onClick={() => setDiscarding(true)}
            disabled={!!discardReason || !!busy}
            aria-describedby={discardReason ? 'discard-draft-reason' : undefined}
          >
            Discard draft
          </Button>
          {discardReason && <Reason id="discard-draft-reason" text={discardReason} />}
        </Box>
        <Box>
          <Button
            variant="contained"
            onClick={() => setPublishing(true)}
            disabled={!!publishReason || !!busy}
            aria-describedby={publishReason ? 'publish-draft-reason' : undefined}
          >
            Publish...
          </Button>
          {publishReason && <Reason id="publish-draft-reason" text={publishReason} />}
        </Box>
      </Stack>
      <ConfirmDialog
        open={discarding}
        title="Discard the draft?"
        confirmLabel="Discard"
        busyLabel="Discarding..."
        busy={busy === 'discard'}
        destructive
        onConfirm={() => void discard()}
        onClose={() => setDiscarding(false)}
      >
        {`Draft version ${d.draft?.label ?? ''} of ${d.identifier} is deleted. The measure stays as published (version ${d.published.label}).`}
      </ConfirmDialog>
      {publishing && d.draft && <PublishDialog d={d} onClose={() => setPublishing(false)} />}
    </Box>
  );
}
