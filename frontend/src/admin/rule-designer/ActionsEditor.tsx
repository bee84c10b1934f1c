import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { ACTION_SEVERITIES, ACTION_TYPES } from '@cds/contracts';
import { newAction, type ActionDraft } from './draft';

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

export function ActionsEditor({
  actions,
  onChange,
  readOnly,
  errors = {},
}: {
  actions: ActionDraft[];
  onChange: (next: ActionDraft[]) => void;
  readOnly?: boolean;
  errors?: Record<string, string>;
}) {
  const update = (i: number, patch: Partial<ActionDraft>) => onChange(actions.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  return (
    <Stack spacing={2}>
      {actions.length === 0 && (
        <Typography color="text.secondary">No actions yet: add what the clinician should do when the rule matches.</Typography>
      )}
      {actions.map((a, i) => (
        <Paper
          key={a.key}
          variant="outlined"
          role="group"
          aria-labelledby={`action-${i}-title`}
          sx={{ p: 2, pt: 1 }}
          data-testid="action-row"
        >
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', minHeight: 36 }}>
            <Typography id={`action-${i}-title`} sx={{ fontWeight: 600, fontSize: '0.9rem' }}>
              Action {i + 1}
            </Typography>
            {!readOnly && (
              <IconButton aria-label={`Remove action ${i + 1}`} onClick={() => onChange(actions.filter((_, j) => j !== i))} size="small">
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            )}
          </Box>
          <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, alignItems: 'start', mt: 1 }}>
            <TextField
              select
              size="small"
              label="Type"
              id={`action-${i}-type`}
              value={a.type}
              onChange={(e) => update(i, { type: e.target.value })}
              disabled={readOnly}
            >
              {!(ACTION_TYPES as readonly string[]).includes(a.type) && <MenuItem value={a.type}>{a.type}</MenuItem>}
              {ACTION_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {cap(t)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label="Severity"
              id={`action-${i}-severity`}
              value={a.severity}
              onChange={(e) => update(i, { severity: e.target.value })}
              disabled={readOnly}
            >
              {ACTION_SEVERITIES.map((s) => (
                <MenuItem key={s} value={s}>
                  {cap(s)}
                </MenuItem>
              ))}
            </TextField>
          </Box>
          <TextField
            label="Message"
            id={`action-${i}-message`}
            required
            multiline
            minRows={2}
            value={a.message}
            onChange={(e) => update(i, { message: e.target.value, value: undefined })}
            disabled={readOnly}
            error={!!errors[`actions.${i}.message`]}
            helperText={errors[`actions.${i}.message`] ?? 'What the clinician reads when the rule matches.'}
            slotProps={{ htmlInput: { maxLength: 2000 } }}
            sx={{ mt: 1.5 }}
          />
        </Paper>
      ))}
      {!readOnly && (
        <Box>
          <Button startIcon={<AddIcon />} variant="outlined" onClick={() => onChange([...actions, newAction()])}>
            Add Action
          </Button>
        </Box>
      )}
    </Stack>
  );
}
