import { useEffect, useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { unitDisplay, type CdsPrefillValue, type NumericInputJson, type QuestionJson } from '@cds/contracts';
import { formatNumber } from '../components/findings/clinicalFormat';
import { prefillNote } from './prefill';

/** A refusal must be read: the theme's pale error tint is too faint for it, so it gets the full error colours. */
export const refusalSx = {
  bgcolor: 'error.light',
  color: 'error.dark',
  border: 1,
  borderColor: 'error.main',
  '& .MuiAlert-icon': { color: 'error.main' },
} as const;

export interface TypedAnswer {
  value: number;
  /** Sent only when the clinician chose a unit other than the parameter's. */
  unit?: string;
  /** ISO date (YYYY-MM-DD). */
  observed_at?: string;
  /** The value offered from the record (or the EHR), recorded unchanged. */
  confirmed_from?: 'record' | 'ehr';
}

function withUnit(n: number, unit: string): string {
  const text = formatNumber(n);
  if (!unit) return text;
  return unit === '%' ? `${text} %` : `${text} ${unit}`;
}

function todayIso(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/**
 * The checks the server makes before it stores a typed value, done first so the clinician hears at
 * once what is wrong and which limit applies. Limits and decimals are in the parameter's unit, so
 * they are checked here only for a value typed in that unit; the server checks converted values.
 */
export function checkTypedValue(
  text: string,
  input: NumericInputJson,
  displayName: string,
  unitCode: string | null,
): { value: number; error?: undefined } | { error: string } {
  const cleaned = text.trim().replace(',', '.');
  if (!cleaned) return { error: `Enter the ${displayName} value.` };
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return { error: 'Enter a number, for example 6.5.' };
  const value = Number(cleaned);
  if (!Number.isFinite(value)) return { error: 'Enter a number, for example 6.5.' };
  const inParameterUnit = !unitCode || unitCode === input.unit;
  if (!inParameterUnit) return { value };
  const unit = input.unit_display ?? unitDisplay(input.unit);
  const places = cleaned.includes('.') ? cleaned.split('.')[1].length : 0;
  if (input.decimals != null && places > input.decimals) {
    return {
      error:
        input.decimals === 0
          ? `${displayName} is recorded in whole numbers.`
          : `${displayName} is recorded to ${input.decimals} decimal place${input.decimals === 1 ? '' : 's'}.`,
    };
  }
  if (input.min != null && value < input.min) return { error: `${displayName} must be at least ${withUnit(input.min, unit)}.` };
  if (input.max != null && value > input.max) return { error: `${displayName} must be at most ${withUnit(input.max, unit)}.` };
  return { value };
}

/** "Between 3 and 20 %, 1 decimal place." */
function limitsHint(input: NumericInputJson): string {
  const unit = input.unit_display ?? unitDisplay(input.unit);
  const parts: string[] = [];
  if (input.min != null && input.max != null) parts.push(`Between ${formatNumber(input.min)} and ${withUnit(input.max, unit)}`);
  else if (input.min != null) parts.push(`At least ${withUnit(input.min, unit)}`);
  else if (input.max != null) parts.push(`At most ${withUnit(input.max, unit)}`);
  if (input.decimals != null)
    parts.push(input.decimals === 0 ? 'whole numbers' : `up to ${input.decimals} decimal place${input.decimals === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/**
 * Decimal entry of a measured value in the parameter's unit (or another unit the parameter lists),
 * with an optional observation date. What was typed stays in the field when the server refuses it.
 */
export function NumericAnswerField({
  question,
  onSubmit,
  busy,
  serverError,
  prefill,
  prefillOrigin,
}: {
  question: QuestionJson & { input: NumericInputJson };
  /** The EHR's value for this question (CDS card link): filled in, and recorded only when the clinician confirms it. */
  prefill?: CdsPrefillValue & { value: number };
  /** Where the prefilled value came from: the stored record (the Panel) or the EHR (a CDS card). */
  prefillOrigin?: 'record' | 'ehr';
  onSubmit: (answer: TypedAnswer) => void;
  busy: boolean;
  /** The server's message when it refused the last value (e.g. 422 out_of_range). */
  serverError: string | null;
}) {
  const input = question.input;
  const id = useId();
  // Only a value in a unit this field offers is filled in; anything else is left for the clinician to type.
  const given =
    prefill && ((prefill.unit ?? '') === (input.unit ?? '') || input.units_accepted.some((u) => u.code === prefill.unit)) ? prefill : null;
  const [text, setText] = useState(given ? String(given.value) : '');
  const [unit, setUnit] = useState<string>(given?.unit ?? input.unit ?? input.units_accepted[0]?.code ?? '');
  const [date, setDate] = useState(given?.observed_at?.slice(0, 10) ?? '');
  const [error, setError] = useState<string | null>(null);
  const [dateError, setDateError] = useState<string | null>(null);
  // The server's refusal stays until the clinician changes what it refused.
  const [refusal, setRefusal] = useState<string | null>(serverError);
  useEffect(() => setRefusal(serverError), [serverError]);

  const units = input.units_accepted.length
    ? input.units_accepted
    : input.unit
      ? [{ code: input.unit, display: input.unit_display ?? unitDisplay(input.unit) }]
      : [];
  const shownUnit = units.find((u) => u.code === unit)?.display ?? unitDisplay(unit);
  const hint =
    unit === (input.unit ?? '') ? limitsHint(input) : `Converted to ${input.unit_display ?? unitDisplay(input.unit)} on the server`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkTypedValue(text, input, question.display_name, unit || null);
    const badDate = date && date > todayIso() ? 'The observation date cannot be in the future.' : null;
    setError(checked.error ?? null);
    setDateError(badDate);
    if (checked.error !== undefined || badDate) return;
    // Unchanged from what was offered (value, unit and date): the answer is the record's, confirmed.
    const unchanged =
      given !== null &&
      checked.value === given.value &&
      unit === (given.unit ?? input.unit ?? '') &&
      date === (given.observed_at?.slice(0, 10) ?? '');
    onSubmit({
      value: checked.value,
      ...(unit && unit !== input.unit ? { unit } : {}),
      ...(date ? { observed_at: date } : {}),
      ...(unchanged && prefillOrigin ? { confirmed_from: prefillOrigin } : {}),
    });
  };

  const valueLabel = shownUnit ? `${question.display_name} (${shownUnit})` : question.display_name;
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={`Enter the ${question.display_name} value`} data-testid="numeric-answer">
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: units.length > 1 ? '2fr 1fr 1.4fr' : '2fr 1.4fr' } }}>
        <TextField
          id={`${id}-value`}
          label={valueLabel}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
            setRefusal(null);
          }}
          error={!!error}
          helperText={error ?? hint}
          autoComplete="off"
          slotProps={{
            htmlInput: { inputMode: 'decimal' },
            input: shownUnit ? { endAdornment: <InputAdornment position="end">{shownUnit}</InputAdornment> } : undefined,
          }}
        />
        {units.length > 1 && (
          <TextField
            select
            id={`${id}-unit`}
            label="Unit"
            value={unit}
            onChange={(e) => {
              setUnit(e.target.value);
              setError(null);
              setRefusal(null);
            }}
            slotProps={{ select: { native: true } }}
          >
            {units.map((u) => (
              <option key={u.code} value={u.code}>
                {u.display}
              </option>
            ))}
          </TextField>
        )}
        <TextField
          id={`${id}-date`}
          type="date"
          label="Observed on (optional)"
          value={date}
          onChange={(e) => {
            setDate(e.target.value);
            if (dateError) setDateError(null);
          }}
          error={!!dateError}
          helperText={dateError ?? ' '}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: todayIso() } }}
        />
      </Box>
      {given && (
        <Alert severity="info" sx={{ mt: 1 }} data-testid="prefill-note">
          {prefillNote(given, prefillOrigin)}. Check the value, then record it.
        </Alert>
      )}
      {refusal && (
        <Alert severity="error" role="alert" sx={{ mt: 1, ...refusalSx }}>
          {refusal}
        </Alert>
      )}
      <Button
        type="submit"
        variant="contained"
        disabled={busy}
        sx={{ mt: 1.5 }}
        startIcon={busy ? <CircularProgress size={16} aria-hidden="true" /> : undefined}
      >
        Record value
      </Button>
    </Box>
  );
}
