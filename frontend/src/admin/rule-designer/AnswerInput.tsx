import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { unitDisplay, type ParameterJson } from '@cds/contracts';
import { answerKind, NOT_KNOWN } from './answers';
import { selectOptions } from './conditionRules';

/** One answer of the sandbox, labelled with the parameter's display name and its unit as people write it ("mmHg"). */
export function AnswerInput({
  p,
  value,
  onChange,
  error,
}: {
  p: ParameterJson;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  const kind = answerKind(p);
  const label = `${p.display_name}${p.units ? ` (${unitDisplay(p.units)})` : ''}`;
  const helperText = error ?? 'Leave empty for "no answer".';
  const notKnown = (
    <MenuItem value={NOT_KNOWN}>
      <em>Not known</em>
    </MenuItem>
  );
  if (kind === 'boolean' || kind === 'option') {
    return (
      <TextField
        select
        size="small"
        label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        helperText={helperText}
        error={!!error}
      >
        <MenuItem value="">
          <em>No answer</em>
        </MenuItem>
        {kind === 'boolean'
          ? [
              <MenuItem key="t" value="true">
                True
              </MenuItem>,
              <MenuItem key="f" value="false">
                False
              </MenuItem>,
            ]
          : selectOptions(p).map((o) => (
              <MenuItem key={String(o.value)} value={String(o.value)}>
                {o.label}
              </MenuItem>
            ))}
        {notKnown}
      </TextField>
    );
  }
  return (
    <TextField
      size="small"
      label={label}
      type={kind === 'number' ? 'number' : kind === 'date' ? 'date' : 'text'}
      value={value === NOT_KNOWN ? '' : value}
      onChange={(e) => onChange(e.target.value)}
      helperText={helperText}
      error={!!error}
      slotProps={{ inputLabel: kind === 'date' ? { shrink: true } : undefined, htmlInput: { step: 'any' } }}
    />
  );
}
