import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { PARAMETER_CATEGORIES, PARAMETER_DATA_TYPES, PARAMETER_LIMITS } from '@cds/contracts';
import { categoryLabel, dataTypeLabel } from './labels';

/** The fields Create (Custom Parameter) and Edit share. */
export interface ParameterValues {
  name: string;
  display_name: string;
  description: string;
  data_type: string;
  category: string;
  units: string;
  is_required: boolean;
  question_override: string;
}

export const EMPTY_PARAMETER: ParameterValues = {
  name: '',
  display_name: '',
  description: '',
  data_type: '',
  category: '',
  units: '',
  is_required: true,
  question_override: '',
};

/** The API's length limits of the fields this form shows. */
export const LIMITS = {
  name: PARAMETER_LIMITS.name,
  display_name: PARAMETER_LIMITS.display_name,
  description: PARAMETER_LIMITS.description,
  units: PARAMETER_LIMITS.units,
  question_override: PARAMETER_LIMITS.question_override,
} as const;

/** docs/product-spec.md section 5: name, display name, data type and category are required; the API's lengths. */
export function parameterProblems(v: ParameterValues): Partial<Record<keyof ParameterValues, string>> {
  const p: Partial<Record<keyof ParameterValues, string>> = {};
  if (!v.name.trim()) p.name = 'Parameter name is required.';
  if (!v.display_name.trim()) p.display_name = 'Display name is required.';
  if (!v.data_type) p.data_type = 'Choose a data type.';
  if (!v.category) p.category = 'Choose a category.';
  for (const key of Object.keys(LIMITS) as Array<keyof typeof LIMITS>) {
    if (v[key].length > LIMITS[key]) p[key] = `At most ${LIMITS[key]} characters.`;
  }
  return p;
}

export function ParameterInputs({
  value,
  onChange,
  disabled,
  showErrors,
  withQuestion = false,
  dataTypeLocked,
}: {
  value: ParameterValues;
  onChange: (next: ParameterValues) => void;
  disabled?: boolean;
  showErrors?: boolean;
  withQuestion?: boolean;
  /** Shown under Data Type when rules depend on it. */
  dataTypeLocked?: string;
}) {
  const problems = showErrors ? parameterProblems(value) : {};
  const set = <K extends keyof ParameterValues>(key: K, v: ParameterValues[K]) => onChange({ ...value, [key]: v });
  const text = (key: keyof typeof LIMITS) => ({
    value: value[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key, e.target.value),
    error: !!problems[key],
    helperText: problems[key],
    disabled,
    slotProps: { htmlInput: { maxLength: LIMITS[key] } },
  });
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField label="Parameter Name" required {...text('name')} helperText={problems.name ?? 'For example hba1c or Wt_lb'} />
        <TextField label="Display Name" required {...text('display_name')} />
      </Stack>
      <TextField label="Description" multiline minRows={2} {...text('description')} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          label="Data Type"
          required
          value={value.data_type}
          onChange={(e) => set('data_type', e.target.value)}
          error={!!problems.data_type}
          helperText={problems.data_type ?? dataTypeLocked}
          disabled={disabled}
        >
          {PARAMETER_DATA_TYPES.map((t) => (
            <MenuItem key={t} value={t}>
              {dataTypeLabel(t)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Category"
          required
          value={value.category}
          onChange={(e) => set('category', e.target.value)}
          error={!!problems.category}
          helperText={problems.category}
          disabled={disabled}
        >
          {PARAMETER_CATEGORIES.map((c) => (
            <MenuItem key={c} value={c}>
              {categoryLabel(c)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <TextField label="Units (optional)" {...text('units')} />
      {withQuestion && (
        <TextField
          label="Question override (optional)"
          {...text('question_override')}
          helperText={problems.question_override ?? 'Your own wording of the question; leave empty to use the polished one.'}
        />
      )}
      <FormControlLabel
        control={<Switch checked={value.is_required} onChange={(e) => set('is_required', e.target.checked)} disabled={disabled} />}
        label="Required"
      />
    </Stack>
  );
}
