import { useEffect, useState, type FormEvent } from 'react';
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
import { useQueryClient } from '@tanstack/react-query';
import { useCreate } from 'react-admin';
import { errorMessage } from '../../../api';
import { ADMIN_TOASTS } from '../../messages';
import { useToast } from '../../providers/useToast';
import type { RuleSetJson } from '@cds/contracts';

/** docs/product-spec.md section 2: 'Rule Set Name *', 'Description'; Cancel and 'Create & Add Rule' ('Creating...'). */
export function CreateRuleSetDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (set: RuleSetJson) => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [create, { isPending }] = useCreate<RuleSetJson>();
  const toast = useToast();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (open) {
      setName('');
      setDescription('');
      setError(null);
    }
  }, [open]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // docs/product-spec.md section 5: the name must be non-blank after trimming.
    if (!name.trim() || isPending) return;
    setError(null);
    create(
      'rule-sets',
      { data: { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) } },
      {
        onSuccess: (set) => {
          void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
          toast(ADMIN_TOASTS.ruleSetCreated);
          onCreated(set);
        },
        onError: (err) => {
          console.error('Rule set creation failed', err);
          setError(errorMessage(err, 'The server refused the rule set.'));
          toast(ADMIN_TOASTS.ruleSetCreateFailed);
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={isPending ? undefined : onClose} aria-labelledby="create-rule-set-title" maxWidth="sm" fullWidth>
      <DialogTitle id="create-rule-set-title">Create Rule Set</DialogTitle>
      <Box component="form" noValidate onSubmit={submit} aria-label="Create rule set">
        <DialogContent>
          <Stack spacing={2}>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label="Rule Set Name"
              required
              autoFocus
              value={name}
              onChange={(e) => setName(e.target.value)}
              disabled={isPending}
              slotProps={{ htmlInput: { maxLength: 200 } }}
            />
            <TextField
              label="Description"
              multiline
              minRows={3}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              disabled={isPending}
              slotProps={{ htmlInput: { maxLength: 2000 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isPending} color="secondary">
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!name.trim() || isPending}
            startIcon={isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
          >
            {isPending ? 'Creating...' : 'Create & Add Rule'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
