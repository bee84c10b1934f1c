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
import AutoFixHighIcon from '@mui/icons-material/AutoFixHigh';
import { useQueryClient } from '@tanstack/react-query';
import { useUpdate } from 'react-admin';
import { errorMessage } from '../../../api';
import { formatDateTime } from '../../../components/format';
import { ADMIN_TOASTS } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { ParameterJson } from '@cds/contracts';
import { CriterionEditor } from './CriterionEditor';
import { DIALOG_CONTENT_SX, DIALOG_PAPER_SX } from './dialogSx';
import {
  criterionOf,
  draftOf,
  draftProblems,
  EMPTY_CRITERION,
  rulesWith,
  sameJson,
  serverCriterionErrors,
  type CriterionErrors,
} from './criterionDraft';
import { questionSource } from './labels';
import { ParameterInputs, parameterProblems, type ParameterValues } from './ParameterInputs';

export function valuesOf(p: ParameterJson): ParameterValues {
  return {
    name: p.name,
    display_name: p.display_name,
    description: p.description ?? '',
    data_type: p.data_type,
    category: p.category,
    units: p.units ?? '',
    is_required: p.is_required,
    question_override: p.question_override ?? '',
  };
}

/** Only what changed (the server bumps the version and records each changed field). */
export function changedFields(before: ParameterValues, after: ParameterValues): Partial<ParameterValues> {
  const out: Partial<ParameterValues> = {};
  for (const key of Object.keys(after) as Array<keyof ParameterValues>) {
    const a = typeof after[key] === 'string' ? (after[key] as string).trim() : after[key];
    const b = typeof before[key] === 'string' ? (before[key] as string).trim() : before[key];
    if (a !== b) (out as Record<string, unknown>)[key] = a;
  }
  return out;
}

function QuestionPanel({ parameter, onPolished }: { parameter: ParameterJson; onPolished: () => void }) {
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const polish = async () => {
    setBusy(true);
    try {
      await adminApi.polishParameter(parameter.id);
      toast(ADMIN_TOASTS.polishQueued);
      onPolished();
    } catch (e) {
      toast({ title: 'Error', description: errorMessage(e, 'Polishing could not be queued. Please try again.') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="section" aria-labelledby="question-title" sx={{ p: 2, borderRadius: 1.5, bgcolor: 'background.default' }}>
      <Typography id="question-title" component="h3" variant="h5" sx={{ mb: 1 }}>
        Question asked to clinicians
      </Typography>
      <Typography sx={{ fontStyle: 'italic' }}>“{parameter.question_text}”</Typography>
      <Typography variant="body2" color="text.secondary">
        {questionSource(parameter)}
      </Typography>
      {parameter.polished_question && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Polished wording{parameter.polished_provider ? ` (${parameter.polished_provider})` : ''}: “{parameter.polished_question}”
          {parameter.polished_at ? `, ${formatDateTime(parameter.polished_at)}` : ''}
        </Typography>
      )}
      <Button
        size="small"
        startIcon={busy ? <CircularProgress size={14} aria-hidden="true" /> : <AutoFixHighIcon />}
        onClick={polish}
        disabled={busy}
        sx={{ mt: 1 }}
      >
        Polish again
      </Button>
    </Box>
  );
}

export function EditParameterDialog({ parameter, onClose }: { parameter: ParameterJson | null; onClose: () => void }) {
  const [values, setValues] = useState<ParameterValues | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [criterion, setCriterion] = useState(EMPTY_CRITERION);
  const [criterionErrors, setCriterionErrors] = useState<CriterionErrors>({});
  const [update, { isPending }] = useUpdate<ParameterJson>();
  const toast = useToast();
  const queryClient = useQueryClient();

  useEffect(() => {
    setValues(parameter ? valuesOf(parameter) : null);
    setCriterion(draftOf(parameter?.validation_rules));
    setCriterionErrors({});
    setReason('');
    setError(null);
  }, [parameter]);

  if (!parameter || !values) return null;

  const criterionBlocked = Object.keys(draftProblems(criterion, values.data_type)).length > 0;
  const blocked = Object.keys(parameterProblems(values)).length > 0 || criterionBlocked;
  const read = criterionOf(criterion);
  // The server replaces validation_rules whole: send them only when the reading changed, every other rule as it was.
  const rules = sameJson(read, parameter.validation_rules?.criterion)
    ? {}
    : { validation_rules: rulesWith(parameter.validation_rules, read) };
  const changes = { ...changedFields(valuesOf(parameter), values), ...rules };
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['parameters'] });
    void queryClient.invalidateQueries({ queryKey: ['parameter-changes'] });
  };

  const save = () => {
    if (blocked) return;
    if (!Object.keys(changes).length) {
      onClose();
      return;
    }
    setError(null);
    update(
      'parameters',
      { id: parameter.id, data: { ...changes, ...(reason.trim() ? { change_reason: reason.trim() } : {}) }, previousData: parameter },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          toast(ADMIN_TOASTS.parameterUpdated);
          refresh();
          onClose();
        },
        onError: (e) => {
          console.error('Update parameter failed', e);
          setError(errorMessage(e, 'The server refused the change.'));
          setCriterionErrors(serverCriterionErrors(e));
          toast(ADMIN_TOASTS.parameterUpdateFailed);
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={isPending ? undefined : onClose}
      aria-labelledby="edit-parameter-title"
      maxWidth="md"
      fullWidth
      slotProps={{ paper: { sx: DIALOG_PAPER_SX } }}
    >
      <DialogTitle id="edit-parameter-title">Edit {parameter.display_name}</DialogTitle>
      <DialogContent dividers sx={DIALOG_CONTENT_SX}>
        <Stack spacing={2}>
          {error && <Alert severity="error">{error}</Alert>}
          {!parameter.is_template && <QuestionPanel parameter={parameter} onPolished={refresh} />}
          <ParameterInputs value={values} onChange={setValues} disabled={isPending} showErrors withQuestion={!parameter.is_template} />
          <CriterionEditor
            value={criterion}
            onChange={(next) => {
              setCriterion(next);
              setCriterionErrors({});
            }}
            parameterUnit={values.units}
            dataType={values.data_type}
            serverErrors={criterionErrors}
            disabled={isPending}
          />
          <TextField
            label="Reason for the change (optional)"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            helperText="Kept in the change history."
            disabled={isPending}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Typography id="edit-save-state" variant="body2" color="text.secondary" sx={{ mr: 'auto', pl: 1 }}>
          Version {parameter.version}
          {Object.keys(changes).length ? ` → ${parameter.version + 1} on save` : ''}
          {blocked && (criterionBlocked ? '. Fix the reading from the record to save.' : '. Fill in the required fields to save.')}
        </Typography>
        <Button onClick={onClose} disabled={isPending} color="secondary">
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={save}
          disabled={isPending || blocked}
          aria-describedby="edit-save-state"
          startIcon={isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
