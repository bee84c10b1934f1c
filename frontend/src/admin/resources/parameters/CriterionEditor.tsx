import { criterionText } from '@cds/engine';
import { unitDisplay } from '@cds/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  criterionOf,
  draftProblems,
  EDITABLE_TAKES,
  FILTERED_TAKES,
  OPERATOR_LABELS,
  TAKE_LABELS,
  type CriterionDraft,
  type CriterionErrors,
  type EditableTake,
} from './criterionDraft';

const OPERATORS = Object.keys(OPERATOR_LABELS) as Array<keyof typeof OPERATOR_LABELS>;
const STATUSES_NOTE =
  'Only results with status final, amended or corrected count; preliminary, cancelled and entered-in-error results never do.';

/** "Read from the record" in the parameter dialogs (issue 20): the criterion hook calls read, with its sentence and problems live. */
export function CriterionEditor({
  value,
  onChange,
  parameterUnit,
  serverErrors = {},
  disabled,
}: {
  value: CriterionDraft;
  onChange: (next: CriterionDraft) => void;
  /** The parameter's own unit (UCUM): values are read in it unless the criterion names another. */
  parameterUnit: string;
  /** A 400's problems by field, until the fields change. */
  serverErrors?: CriterionErrors;
  disabled?: boolean;
}) {
  const set = <K extends keyof CriterionDraft>(key: K, v: CriterionDraft[K]) => onChange({ ...value, [key]: v });
  const errors: CriterionErrors = { ...serverErrors, ...draftProblems(value) };
  const criterion = criterionOf(value);
  const filtered = FILTERED_TAKES.has(value.take);
  const ownUnit = parameterUnit.trim() ? unitDisplay(parameterUnit.trim()) : null;
  const accepted = value.base?.units_accepted?.map((u) => unitDisplay(u.code)).join(', ');
  const keepsConversions = !!accepted && value.unit.trim() === value.base?.unit;
  const field = (key: 'codes' | 'days' | 'unit', hint: string) => ({
    value: value[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key, e.target.value),
    error: !!errors[key],
    helperText: errors[key] ?? hint,
    disabled,
  });

  return (
    <Box
      component="section"
      aria-labelledby="criterion-title"
      sx={{ p: { xs: 1.5, sm: 2 }, borderRadius: 1.5, border: 1, borderColor: 'divider', minWidth: 0 }}
    >
      <Typography id="criterion-title" component="h3" variant="h5">
        Read from the record
      </Typography>
      <FormControlLabel
        control={<Switch checked={value.on} onChange={(e) => set('on', e.target.checked)} disabled={disabled} />}
        label="Read from the patient's record"
      />
      <Typography variant="body2" color="text.secondary">
        {value.on
          ? 'In a hook call the answer is taken from the EHR’s results, not asked.'
          : 'Off: the answer is asked, never read from the record.'}
      </Typography>
      {value.on && value.fixed && (
        <Alert severity="info" sx={{ mt: 2 }}>
          Reads: {criterionText(value.fixed)}. This reading was written outside the console (another kind of record, a value set or a
          measurement period); it is kept as it is. Turn the switch off to remove it.
        </Alert>
      )}
      {value.on && !value.fixed && (
        <Stack spacing={2} sx={{ mt: 2 }}>
          <TextField
            label="LOINC codes"
            required
            {...field('codes', 'One or more, separated by commas: 4548-4, 59261-8')}
            slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              select
              label="What is taken"
              value={value.take}
              onChange={(e) => set('take', e.target.value as EditableTake)}
              error={!!errors.take}
              helperText={errors.take}
              disabled={disabled}
              sx={{ flex: 1 }}
            >
              {EDITABLE_TAKES.map((t) => (
                <MenuItem key={t} value={t}>
                  {TAKE_LABELS[t]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Window, days back from now"
              {...field('days', 'Empty: the whole record')}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              sx={{ flex: 1 }}
            />
          </Stack>
          {filtered && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label={value.take === 'days_persisting' ? 'Value that persists' : 'Only values'}
                value={value.operator}
                onChange={(e) => set('operator', e.target.value as CriterionDraft['operator'])}
                error={!!errors.filter}
                disabled={disabled}
                sx={{ flex: 1 }}
              >
                <MenuItem value="">Any value</MenuItem>
                {OPERATORS.map((o) => (
                  <MenuItem key={o} value={o}>
                    {OPERATOR_LABELS[o]}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                label="Value"
                value={value.value}
                onChange={(e) => set('value', e.target.value)}
                error={!!errors.filter}
                helperText={errors.filter ?? 'In the unit below'}
                disabled={disabled}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                sx={{ flex: 1 }}
              />
            </Stack>
          )}
          <TextField
            label="Unit of the values (UCUM)"
            {...field(
              'unit',
              [
                `Empty: the parameter’s unit (${ownUnit ?? 'none set'})`,
                accepted &&
                  (keepsConversions
                    ? `Also accepted, converted: ${accepted}`
                    : `Conversions from ${accepted} apply only to the stored unit`),
              ]
                .filter(Boolean)
                .join('. '),
            )}
            slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
          />
          <Typography variant="body2" color="text.secondary">
            {STATUSES_NOTE}
          </Typography>
          {errors.other && <Alert severity="error">{errors.other}</Alert>}
          <Box role="status" aria-label="Reading in words" sx={{ p: 1.5, borderRadius: 1, bgcolor: 'background.default' }}>
            <Typography variant="body2" color="text.secondary">
              Reads
            </Typography>
            <Typography sx={{ fontWeight: 500, wordBreak: 'break-word' }}>{criterion ? criterionText(criterion) : '—'}</Typography>
          </Box>
        </Stack>
      )}
    </Box>
  );
}
