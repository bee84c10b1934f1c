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
  const [update, { isPending }] = useUpdate<ParameterJson>();
  const toast = useToast();
  const queryClient = useQueryClient();

  useEffect(() => {
    setValues(parameter ? valuesOf(parameter) : null);
    setReason('');
    setError(null);
  }, [parameter]);

  if (!parameter || !values) return null;

  const problems = parameterProblems(values);
  const changes = changedFields(valuesOf(parameter), values);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['parameters'] });
    void queryClient.invalidateQueries({ queryKey: ['parameter-changes'] });
  };

  const save = () => {
    if (Object.keys(problems).length) return;
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
      slotProps={{ paper: { sx: { maxHeight: '90vh' } } }}
    >
      <DialogTitle id="edit-parameter-title">Edit {parameter.display_name}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {error && <Alert severity="error">{error}</Alert>}
          {!parameter.is_template && <QuestionPanel parameter={parameter} onPolished={refresh} />}
          <ParameterInputs value={values} onChange={setValues} disabled={isPending} showErrors withQuestion={!parameter.is_template} />
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
      <DialogActions>
        <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto', pl: 1 }}>
          Version {parameter.version}
          {Object.keys(changes).length ? ` → ${parameter.version + 1} on save` : ''}
        </Typography>
        <Button onClick={onClose} disabled={isPending} color="secondary">
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={save}
          disabled={isPending || Object.keys(problems).length > 0}
          startIcon={isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function CloneParameterDialog({ parameter, onClose }: { parameter: ParameterJson | null; onClose: () => void }) {
  const [name, setName] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const queryClient = useQueryClient();

  useEffect(() => {
    setName(parameter ? `${parameter.name}_copy`.slice(0, 100) : '');
    setDisplayName(parameter ? `${parameter.display_name} (copy)`.slice(0, 200) : '');
    setError(null);
  }, [parameter]);

  if (!parameter) return null;
  const ready = !!name.trim() && !!displayName.trim();

  const save = async () => {
    if (!ready) return;
    setSaving(true);
    setError(null);
    try {
      const copy = await adminApi.cloneParameter(parameter.id, { name: name.trim(), display_name: displayName.trim() });
      toast(ADMIN_TOASTS.parameterCloned(copy.display_name));
      void queryClient.invalidateQueries({ queryKey: ['parameters'] });
      void queryClient.invalidateQueries({ queryKey: ['parameter-changes'] });
      onClose();
    } catch (e) {
      setError(errorMessage(e, 'The server refused the copy.'));
      toast(ADMIN_TOASTS.parameterCloneFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={saving ? undefined : onClose} aria-labelledby="clone-parameter-title" maxWidth="sm" fullWidth>
      <DialogTitle id="clone-parameter-title">Clone {parameter.display_name}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          <Typography variant="body2" color="text.secondary">
            The copy has the same type, category, units and validation rules, and starts at version 1.
          </Typography>
          <TextField
            label="Parameter Name"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={!name.trim()}
            helperText={!name.trim() ? 'Parameter name is required.' : 'Must differ from every active parameter.'}
            slotProps={{ htmlInput: { maxLength: 100 } }}
            disabled={saving}
          />
          <TextField
            label="Display Name"
            required
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            error={!displayName.trim()}
            helperText={!displayName.trim() ? 'Display name is required.' : ' '}
            slotProps={{ htmlInput: { maxLength: 200 } }}
            disabled={saving}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving} color="secondary">
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={save}
          disabled={!ready || saving}
          startIcon={saving ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {saving ? 'Cloning...' : 'Clone'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
