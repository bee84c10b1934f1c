import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../api';
import { formatDateTime } from '../../../components/format';
import { useAdminQuery } from '../../components/useAdminQuery';
import { ADMIN_TOASTS } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { DiffResult, RuleSetRecord } from '../../types';

const FIELD_LABEL: Record<string, string> = {
  name: 'name',
  description: 'description',
  priority: 'priority',
  conditions: 'conditions',
  actions: 'actions',
};

export function DiffView({ diff }: { diff: DiffResult }) {
  const section = (title: string, items: Array<{ id: string; text: string }>, color: 'success' | 'error' | 'primary') =>
    items.length ? (
      <Box component="section" aria-label={title} sx={{ mb: 1.5 }}>
        <Typography component="h3" variant="h6" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <Chip size="small" color={color} label={items.length} /> {title}
        </Typography>
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
          {items.map((i) => (
            <li key={i.id}>
              <Typography variant="body2">{i.text}</Typography>
            </li>
          ))}
        </Box>
      </Box>
    ) : null;
  return (
    <Box data-testid="publish-diff">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {diff.from
          ? `Compared with version ${diff.from.number}${diff.from.published_at ? `, published ${formatDateTime(diff.from.published_at)}` : ''}.`
          : 'This will be the first published version.'}
      </Typography>
      {section('Rules added', diff.added.map((r) => ({ id: r.id, text: r.name })), 'success')}
      {section('Rules removed', diff.removed.map((r) => ({ id: r.id, text: r.name })), 'error')}
      {section(
        'Rules changed',
        diff.changed.map((c) => ({ id: c.id, text: `${c.name}: ${c.fields.map((f) => FIELD_LABEL[f] ?? f).join(', ')}` })),
        'primary',
      )}
      {section(
        'Parameters changed',
        [
          ...diff.parameters.added.map((p) => ({ id: `a-${p.id}`, text: `${p.display_name} (now used)` })),
          ...diff.parameters.removed.map((p) => ({ id: `r-${p.id}`, text: `${p.display_name} (no longer used)` })),
          ...diff.parameters.changed.map((p) => ({ id: `c-${p.id}`, text: `${p.name}: ${p.fields.join(', ')}` })),
        ],
        'primary',
      )}
      {diff.unchanged > 0 && (
        <Typography variant="body2" color="text.secondary">
          {diff.unchanged} rule{diff.unchanged === 1 ? '' : 's'} unchanged.
        </Typography>
      )}
    </Box>
  );
}

/** Publish shows the diff from the last published version, then publishes on confirmation. */
export function PublishDialog({ ruleSet, onClose }: { ruleSet: RuleSetRecord; onClose: () => void }) {
  const diff = useAdminQuery(['rule-sets', ruleSet.id, 'diff'], () => adminApi.diff(ruleSet.id));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const queryClient = useQueryClient();

  const publish = async () => {
    setBusy(true);
    setError(null);
    try {
      const v = await adminApi.publish(ruleSet.id);
      toast(ADMIN_TOASTS.published(v.number));
      void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
      onClose();
    } catch (e) {
      // 409: no active rule, a failing saved test case, or nothing changed; the message says which.
      setError(errorMessage(e, 'Publishing failed. Please try again.'));
      toast({ title: 'Error', description: errorMessage(e, 'Publishing failed. Please try again.') });
    } finally {
      setBusy(false);
    }
  };

  const nothing = diff.data && !diff.data.has_changes;
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="publish-title" maxWidth="sm" fullWidth>
      <DialogTitle id="publish-title">Publish {ruleSet.name}</DialogTitle>
      <DialogContent dividers>
        {diff.isPending && <Typography>Loading the changes...</Typography>}
        {diff.error ? <Alert severity="error">{errorMessage(diff.error, 'The changes could not be loaded.')}</Alert> : null}
        {diff.data && <DiffView diff={diff.data} />}
        {nothing && (
          <Alert severity="info" sx={{ mt: 1 }}>
            Nothing changed since version {diff.data?.from?.number}.
          </Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          Publishing makes these rules the ones clinical assessments use. Saved test cases must pass.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} color="secondary">
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={publish}
          disabled={busy || !diff.data || !!nothing}
          startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {busy ? 'Publishing...' : 'Publish'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
