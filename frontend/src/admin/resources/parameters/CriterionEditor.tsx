import { useMemo } from 'react';
import { criterionText, WINDOW_RELATIONS, type CriterionResourceType } from '@cds/engine';
import { unitDisplay, type ValueSetSummaryJson } from '@cds/contracts';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../providers/dataProvider';
import { dataTypeLabel } from './labels';
import {
  criterionOf,
  defaultStatuses,
  draftProblems,
  FILTERED_TAKES,
  hasSpan,
  NEVER_COUNTS,
  offeredTakes,
  OPERATOR_LABELS,
  readableDataType,
  RELATION_LABELS,
  RESOURCE_TYPES,
  STATUS_OPTIONS,
  statusLabel,
  systemName,
  takeLabel,
  withResourceType,
  type CriterionDraft,
  type CriterionErrors,
  type EditableTake,
} from './criterionDraft';

const OPERATORS = Object.keys(OPERATOR_LABELS) as Array<keyof typeof OPERATOR_LABELS>;
const CODE_EXAMPLES: Readonly<Record<string, string>> = {
  'http://loinc.org': '4548-4, 59261-8',
  'http://snomed.info/sct': '44054006',
  'http://hl7.org/fhir/sid/icd-10-cm': 'E11.9, E11.65',
  'http://www.ama-assn.org/go/cpt': '99213',
  'http://www.nlm.nih.gov/research/umls/rxnorm': '860975',
};
const ROW = { xs: 'column', sm: 'row' } as const;

/** A value set as the field shows it: the list's entry, else the URL alone (neither stored nor shipped). */
type ValueSetOption = Pick<ValueSetSummaryJson, 'url' | 'title'> & Partial<ValueSetSummaryJson>;

function valueSetDetail(v: ValueSetOption): string {
  if (v.code_count === undefined) return 'Neither stored nor shipped: a reading naming it stays unknown until it is loaded';
  const systems = (v.systems ?? []).map(systemName).join(', ');
  return `${v.code_count} code${v.code_count === 1 ? '' : 's'}${systems ? ` · ${systems}` : ''} · ${v.source === 'stored' ? 'loaded' : 'shipped'}`;
}

/**
 * "Read from the record" in the parameter dialogs (issue 20): the criterion hook calls, the clinical
 * form's prefill and the measures read, with its sentence and problems live. Only the options that
 * make sense for the kind of record and the parameter's data type are offered.
 */
export function CriterionEditor({
  value,
  onChange,
  parameterUnit,
  dataType = '',
  serverErrors = {},
  disabled,
}: {
  value: CriterionDraft;
  onChange: (next: CriterionDraft) => void;
  /** The parameter's own unit (UCUM): values are read in it unless the criterion names another. */
  parameterUnit: string;
  /** The parameter's data type: what is taken must be its answer (a number, or yes/no). */
  dataType?: string;
  /** A 400's problems by field, until the fields change. */
  serverErrors?: CriterionErrors;
  disabled?: boolean;
}) {
  const set = <K extends keyof CriterionDraft>(key: K, v: CriterionDraft[K]) => onChange({ ...value, [key]: v });
  const valueSets = useQuery({ queryKey: ['value-sets'], queryFn: adminApi.valueSets, enabled: value.on, staleTime: 60_000 });
  const byUrl = useMemo(() => new Map((valueSets.data ?? []).map((v) => [v.url, v])), [valueSets.data]);
  const titles = useMemo(() => new Map([...byUrl].map(([url, v]) => [url, v.title])), [byUrl]);
  const errors: CriterionErrors = { ...serverErrors, ...draftProblems(value, dataType) };
  const criterion = criterionOf(value);
  const type = value.resourceType;
  const observation = type === 'Observation';
  const patient = type === 'Patient';
  const filtered = observation && FILTERED_TAKES.has(value.take);
  const takes = offeredTakes(type, dataType);
  const readable = readableDataType(dataType);
  const ownUnit = parameterUnit.trim() ? unitDisplay(parameterUnit.trim()) : null;
  const accepted = value.base?.units_accepted?.map((u) => unitDisplay(u.code)).join(', ');
  const keepsConversions = !!accepted && value.unit.trim() === value.base?.unit;
  const systems = RESOURCE_TYPES.find((r) => r.type === type)!.systems;
  const statusOptions = STATUS_OPTIONS[type] ?? [];
  const counted = value.statuses ?? defaultStatuses(type);
  const period = value.anchor === 'period';
  const chosenSets: ValueSetOption[] = value.valueSets.map((url) => byUrl.get(url) ?? { url, title: url });
  const field = (
    key: 'codes' | 'days' | 'unit' | 'yearsBefore',
    hint: string,
    errorKey: keyof CriterionErrors = key as keyof CriterionErrors,
  ) => ({
    value: value[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key, e.target.value),
    error: !!errors[errorKey],
    helperText: errors[errorKey] ?? hint,
    disabled,
  });
  const toggleStatus = (s: string, on: boolean) => {
    const next = statusOptions.filter((o) => (o === s ? on : counted.includes(o)));
    // Back to the default with no statuses stored: only a change is written.
    const isDefault = next.length === defaultStatuses(type).length && next.every((o) => defaultStatuses(type).includes(o));
    set('statuses', isDefault && !value.base?.statuses ? null : next);
  };

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
        control={
          <Switch
            checked={value.on}
            // Turned on for a yes/no parameter, the reading starts at a take that fits it ("Any result").
            onChange={(e) =>
              onChange({ ...value, on: e.target.checked, take: takes.includes(value.take) ? value.take : (takes[0] ?? value.take) })
            }
            disabled={disabled || (!value.on && !readable)}
          />
        }
        label="Read from the patient's record"
      />
      <Typography variant="body2" color="text.secondary">
        {!readable && !value.on
          ? `Only number and yes/no parameters can be read from the record; this one is ${dataTypeLabel(dataType).toLowerCase()}.`
          : value.on
            ? 'In a hook call the answer is taken from the EHR’s record, not asked.'
            : 'Off: the answer is asked, never read from the record.'}
      </Typography>
      {value.on && value.fixed && (
        <Alert severity="info" sx={{ mt: 2 }}>
          Reads: {criterionText(value.fixed, { valueSetTitles: titles })}. This reading combines several readings (any of), tests the latest
          result for a code, or uses part of a measurement period, which this form does not edit; it is kept as it is. Turn the switch off
          to remove it.
        </Alert>
      )}
      {value.on && !value.fixed && (
        <Stack spacing={2} sx={{ mt: 2 }}>
          <TextField
            select
            label="Kind of record"
            value={type}
            onChange={(e) => onChange(withResourceType(value, e.target.value as CriterionResourceType, dataType))}
            error={!!errors.resourceType}
            helperText={errors.resourceType}
            disabled={disabled}
            slotProps={{ select: { renderValue: (t) => RESOURCE_TYPES.find((r) => r.type === t)?.label ?? String(t) } }}
          >
            {RESOURCE_TYPES.map((r) => (
              <MenuItem key={r.type} value={r.type}>
                {r.label}
                {r.type !== 'Patient' && (
                  <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                    {' '}
                    FHIR {r.type}
                  </Typography>
                )}
              </MenuItem>
            ))}
          </TextField>
          {!patient && (
            <>
              <Stack direction={ROW} spacing={2}>
                <TextField
                  select
                  label="Code system"
                  value={value.system}
                  onChange={(e) => set('system', e.target.value)}
                  disabled={disabled}
                  sx={{ flex: 1, minWidth: { sm: 160 } }}
                >
                  {[...new Set([...systems, value.system])].map((s) => (
                    <MenuItem key={s} value={s}>
                      {systemName(s)}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  label={`${systemName(value.system)} codes`}
                  required={!value.valueSets.length}
                  {...field(
                    'codes',
                    `One or more, separated by commas: ${CODE_EXAMPLES[value.system] ?? 'code1, code2'}. Another system: system|code.`,
                  )}
                  slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
                  sx={{ flex: 2 }}
                />
              </Stack>
              <Autocomplete<ValueSetOption, true>
                multiple
                options={valueSets.data ?? []}
                value={chosenSets}
                onChange={(_e, next) =>
                  set(
                    'valueSets',
                    next.map((v) => v.url),
                  )
                }
                isOptionEqualToValue={(a, b) => a.url === b.url}
                getOptionLabel={(v) => v.title}
                loading={valueSets.isPending}
                disabled={disabled}
                filterSelectedOptions
                renderOption={({ key, ...props }, v) => (
                  <li key={key} {...props}>
                    <Box sx={{ minWidth: 0 }}>
                      <Typography sx={{ wordBreak: 'break-word' }}>{v.title}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {valueSetDetail(v)}
                      </Typography>
                    </Box>
                  </li>
                )}
                renderValue={(chosen, getItemProps) =>
                  chosen.map((v, index) => {
                    const { key, ...itemProps } = getItemProps({ index });
                    return (
                      <Chip
                        key={key}
                        {...itemProps}
                        size="small"
                        label={v.title}
                        title={`${v.url} — ${valueSetDetail(v)}`}
                        color={v.code_count === undefined && !valueSets.isPending ? 'warning' : 'default'}
                        sx={{ maxWidth: '100%' }}
                      />
                    );
                  })
                }
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label="Value sets"
                    error={!!errors.valueSets || valueSets.isError}
                    helperText={
                      errors.valueSets ??
                      (valueSets.isError
                        ? 'The value sets could not be loaded; those already chosen are kept.'
                        : chosenSets.some((v) => v.code_count === undefined) && !valueSets.isPending
                          ? `${chosenSets
                              .filter((v) => v.code_count === undefined)
                              .map((v) => v.url)
                              .join(', ')}: neither stored nor shipped, so the reading stays unknown until it is loaded.`
                          : 'Optional: the codes of these value sets count too (the loaded expansion, else the shipped one).')
                    }
                  />
                )}
              />
              {statusOptions.length > 0 && (
                <FormControl component="fieldset" error={!!errors.statuses} disabled={disabled} sx={{ minWidth: 0 }}>
                  <FormLabel component="legend">Statuses that count</FormLabel>
                  <FormGroup row>
                    {statusOptions.map((s) => (
                      <FormControlLabel
                        key={s}
                        control={
                          <Checkbox size="small" checked={counted.includes(s)} onChange={(e) => toggleStatus(s, e.target.checked)} />
                        }
                        label={statusLabel(s)}
                      />
                    ))}
                  </FormGroup>
                  <FormHelperText>
                    {errors.statuses ??
                      [value.statuses ? null : 'The usual ones for this kind of record.', NEVER_COUNTS[type]].filter(Boolean).join(' ')}
                  </FormHelperText>
                </FormControl>
              )}
            </>
          )}
          <Stack direction={ROW} spacing={2}>
            <TextField
              select
              label="What is taken"
              value={takes.includes(value.take) ? value.take : ''}
              onChange={(e) => set('take', e.target.value as EditableTake)}
              error={!!errors.take}
              helperText={
                errors.take ??
                (!takes.length
                  ? `Nothing from this kind of record answers a ${dataTypeLabel(dataType).toLowerCase()} parameter.`
                  : undefined)
              }
              disabled={disabled}
              sx={{ flex: 1 }}
            >
              {takes.map((t) => (
                <MenuItem key={t} value={t}>
                  {takeLabel(t, type)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label={patient ? 'Age on' : 'When'}
              value={period ? 'period' : 'now'}
              onChange={(e) =>
                onChange({ ...value, anchor: e.target.value === 'period' ? 'period' : value.base?.window?.anchor === 'now' ? 'now' : '' })
              }
              disabled={disabled}
              sx={{ flex: 1 }}
            >
              <MenuItem value="now">{patient ? 'Today' : 'Up to now'}</MenuItem>
              <MenuItem value="period">{patient ? 'A day of the measurement period' : 'In the measurement period'}</MenuItem>
            </TextField>
          </Stack>
          {(!patient || period) && (
            <Stack direction={ROW} spacing={2}>
              {!patient && !period && (
                <TextField
                  label="Window, days back from now"
                  {...field('days', 'Empty: the whole record')}
                  slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                  sx={{ flex: 1 }}
                />
              )}
              {!patient && period && (
                <TextField
                  label="Also the years before the period"
                  {...field('yearsBefore', 'Empty: the period alone', 'window')}
                  slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                  sx={{ flex: 1 }}
                />
              )}
              {patient && period && (
                <TextField
                  select
                  label="Day of the period"
                  value={value.at || 'end'}
                  onChange={(e) => set('at', e.target.value === 'start' ? 'start' : value.base?.window?.at === 'end' ? 'end' : '')}
                  disabled={disabled}
                  sx={{ flex: 1 }}
                >
                  <MenuItem value="start">Its first day</MenuItem>
                  <MenuItem value="end">Its last day</MenuItem>
                </TextField>
              )}
              {hasSpan(type) && (
                <TextField
                  select
                  label="A record counts when it"
                  value={value.relation || 'during'}
                  onChange={(e) =>
                    set(
                      'relation',
                      e.target.value === 'during' && !value.base?.window?.relation ? '' : (e.target.value as CriterionDraft['relation']),
                    )
                  }
                  helperText="A diagnosis or visit lasts a while: how it must meet the window."
                  disabled={disabled}
                  sx={{ flex: 1 }}
                >
                  {WINDOW_RELATIONS.map((r) => (
                    <MenuItem key={r} value={r}>
                      {RELATION_LABELS[r]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            </Stack>
          )}
          {filtered && (
            <Stack direction={ROW} spacing={2}>
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
          {observation && (
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
          )}
          {errors.other && <Alert severity="error">{errors.other}</Alert>}
          <Box role="status" aria-label="Reading in words" sx={{ p: 1.5, borderRadius: 1, bgcolor: 'background.default' }}>
            <Typography variant="body2" color="text.secondary">
              Reads
            </Typography>
            <Typography sx={{ fontWeight: 500, wordBreak: 'break-word' }}>
              {criterion ? criterionText(criterion, { valueSetTitles: titles }) : '—'}
            </Typography>
          </Box>
        </Stack>
      )}
    </Box>
  );
}
