import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { useQueryClient } from '@tanstack/react-query';
import { formatDate } from '../../../components/format';
import { ADMIN_TOASTS, RULES } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { RuleSetJson } from '@cds/contracts';

/** One rule set in the list: name, badges, date, version (or Draft), active switch and Add Rule. */
export function RuleSetItem({
  set,
  selected,
  onSelect,
  onAddRule,
}: {
  set: RuleSetJson;
  selected: boolean;
  onSelect: () => void;
  onAddRule: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const queryClient = useQueryClient();
  const toggle = async (active: boolean) => {
    setBusy(true);
    try {
      await adminApi.setRuleSetActivation(set.id, active);
      await queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
      toast(ADMIN_TOASTS.ruleSetActivated(set.name, active));
    } catch (e) {
      console.error('Rule set activation failed', e);
      toast(ADMIN_TOASTS.ruleSetActivationFailed);
    } finally {
      setBusy(false);
    }
  };
  const titleId = `rule-set-${set.id}`;
  return (
    <Box
      component="li"
      aria-labelledby={titleId}
      aria-current={selected ? 'true' : undefined}
      data-testid="rule-set-item"
      onClick={onSelect}
      sx={{
        listStyle: 'none',
        p: 1.5,
        borderRadius: 1.5,
        border: 1,
        borderColor: selected ? 'primary.main' : 'divider',
        bgcolor: selected ? 'primary.light' : 'background.paper',
        cursor: 'pointer',
      }}
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Link
          id={titleId}
          component="button"
          type="button"
          underline="hover"
          onClick={(e: React.MouseEvent) => {
            e.stopPropagation();
            onSelect();
          }}
          sx={{ fontWeight: 600, fontSize: '1rem', color: 'text.primary', textAlign: 'left' }}
          aria-pressed={selected}
        >
          {set.name}
        </Link>
        {set.is_published && <Chip size="small" color="success" label="Published" />}
        {set.is_template && <Chip size="small" color="primary" variant="outlined" label="Template" />}
      </Box>
      {set.description && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {set.description}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mt: 1 }} onClick={(e) => e.stopPropagation()}>
        <Typography variant="body2" color="text.secondary">
          {formatDate(set.created_at)}
        </Typography>
        {set.latest_version === null ? (
          // Never published: there is no version 1 yet, only a draft.
          <Chip size="small" variant="outlined" label="Draft · not published" />
        ) : (
          <Typography variant="body2" color="text.secondary">
            v{set.latest_version}
          </Typography>
        )}
        <FormControlLabel
          control={
            <Switch
              size="small"
              checked={set.is_active}
              onChange={(e) => void toggle(e.target.checked)}
              disabled={busy}
              slotProps={{ input: { 'aria-label': `${set.name} active` } }}
            />
          }
          label={set.is_active ? 'Active' : 'Inactive'}
          slotProps={{ typography: { variant: 'body2' } }}
          sx={{ mr: 0 }}
        />
        <Button size="small" startIcon={<AddIcon />} onClick={onAddRule} sx={{ ml: 'auto' }} aria-label={`Add Rule to ${set.name}`}>
          {RULES.addRule}
        </Button>
      </Box>
    </Box>
  );
}
