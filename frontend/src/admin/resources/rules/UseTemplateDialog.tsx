import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
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
import { ADMIN_TOASTS, RULES } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { RuleSetJson } from '@cds/contracts';
import { NoTemplates } from './NoTemplates';

/**
 * A new rule set from a template (Import Template chooses one; Use Template comes with it),
 * with a copy of the template's active rules, or, for a shipped content pack, its rules, the
 * parameters they read and its vignettes (installed by the server in one transaction).
 */
export function UseTemplateDialog({
  templates,
  initial,
  onClose,
  onCreated,
  onShowRuleSets,
}: {
  templates: RuleSetJson[];
  initial: RuleSetJson | null;
  onClose: () => void;
  onCreated: (set: RuleSetJson) => void;
  /** With no template to choose, the way to make one: the Rule Sets tab. */
  onShowRuleSets: () => void;
}) {
  const [chosen, setChosen] = useState<RuleSetJson | null>(initial);
  const [name, setName] = useState(initial?.name ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const queryClient = useQueryClient();

  useEffect(() => {
    setChosen(initial);
    setName(initial?.name ?? '');
  }, [initial]);

  const create = async () => {
    if (!chosen || !name.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const set = await adminApi.ruleSetFromTemplate(chosen.id, name.trim());
      void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
      toast(ADMIN_TOASTS.ruleSetFromTemplate(set.name));
      onCreated(set);
    } catch (e) {
      setError(errorMessage(e, 'The server refused the rule set.'));
      toast(ADMIN_TOASTS.ruleSetFromTemplateFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby="use-template-title"
      maxWidth="sm"
      fullWidth
      slotProps={{ paper: { sx: { maxHeight: '90vh' } } }}
    >
      <DialogTitle id="use-template-title">{initial ? RULES.useTemplate : RULES.importTemplate}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {error && <Alert severity="error">{error}</Alert>}
          {!templates.length && <NoTemplates onShowRuleSets={onShowRuleSets} />}
          {!initial &&
            templates.map((t) => (
              <ButtonBase
                key={t.id}
                aria-pressed={chosen?.id === t.id}
                onClick={() => {
                  setChosen(t);
                  setName(t.name);
                }}
                sx={{
                  display: 'block',
                  textAlign: 'left',
                  p: 1.5,
                  borderRadius: 1.5,
                  border: 2,
                  borderColor: chosen?.id === t.id ? 'primary.main' : 'divider',
                  bgcolor: chosen?.id === t.id ? 'primary.light' : 'background.paper',
                }}
              >
                <Typography sx={{ fontWeight: 600 }}>{t.name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {t.description || 'No description'} · {RULES.templateContents(t)}
                </Typography>
              </ButtonBase>
            ))}
          {chosen && (
            <TextField
              label="New rule set name"
              required
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={!name.trim()}
              helperText={
                !name.trim()
                  ? 'Please provide a rule set name.'
                  : chosen.content_pack
                    ? `A draft with the ${RULES.templateContents(chosen)} of "${chosen.name}": parameters are created from the parameter templates, or your existing ones with the same LOINC code are used. Preview and publish it from the Rule Sets tab.`
                    : `A copy of the ${chosen.rule_count} active rule${chosen.rule_count === 1 ? '' : 's'} of "${chosen.name}".`
              }
              slotProps={{ htmlInput: { maxLength: 200 } }}
              disabled={busy}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} color="secondary">
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={create}
          disabled={!chosen || !name.trim() || busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {busy ? 'Creating...' : 'Create Rule Set'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
