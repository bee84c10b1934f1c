import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { before, unitOf, type DraftRule } from './measureDraft';

/**
 * One cut-point of a draft rule: the condition's words, then its number in a field with the unit beside it
 * ("Most recent HbA1c or GMI (lowest that day) >" [9] "%"). The draft form and the flow's panel both edit with it.
 */
export function CutPointField({ r, j, onChange }: { r: DraftRule; j: number; onChange: (value: number | '') => void }) {
  const words = before(r.texts[j], r.worded[j]);
  // The cut-point's unit as the condition reads it ("%", "years"), beside the number typed.
  const unit = unitOf(r.texts[j], r.worded[j]);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
      <Typography variant="body2">{words}</Typography>
      <TextField
        size="small"
        type="number"
        sx={{ width: '9rem' }}
        disabled={!r.included}
        value={String(r.conditions[j].value)}
        onChange={(e) => onChange(e.target.value === '' ? '' : Number(e.target.value))}
        slotProps={{
          htmlInput: { 'aria-label': `${r.name}: ${words}`, step: 'any' },
          input: unit ? { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> } : {},
        }}
      />
    </Stack>
  );
}
