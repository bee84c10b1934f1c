import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
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
import { errorMessage } from '../../../api';
import { ADMIN_TOASTS } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { ParameterJson } from '@cds/contracts';

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
