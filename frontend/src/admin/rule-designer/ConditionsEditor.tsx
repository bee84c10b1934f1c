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
import { unitDisplay, type ParameterJson } from '@cds/contracts';
import {
  changeOperator,
  changeParameter,
  operatorLabel,
  operatorsFor,
  selectOptions,
  valueKind,
  type ConditionDraft,
  type ValueKind,
} from './conditionRules';
import { newCondition } from './draft';

function ValueInput({
  kind,
  parameter,
  value,
  onChange,
  disabled,
  error,
  index,
}: {
  kind: ValueKind;
  parameter: ParameterJson | undefined;
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  error?: string;
  index: number;
}) {
  // docs/product-spec.md section 5: the parameter's units are shown under the value input, as people write them.
  const units = kind === 'days' ? 'days' : unitDisplay(parameter?.units);
  const helperText = [units && `Units: ${units}`, error].filter(Boolean).join(' · ') || ' ';
  const common = {
    label: 'Value',
    value,
    disabled,
    error: !!error,
    helperText,
    size: 'small' as const,
    id: `condition-${index}-value`,
  };
  if (kind === 'boolean') {
    return (
      <TextField select {...common} onChange={(e) => onChange(e.target.value)}>
        <MenuItem value="true">True</MenuItem>
        <MenuItem value="false">False</MenuItem>
      </TextField>
    );
  }
  if (kind === 'option') {
    return (
      <TextField select {...common} onChange={(e) => onChange(e.target.value)}>
        {selectOptions(parameter).map((o) => (
          <MenuItem key={String(o.value)} value={String(o.value)}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  if (kind === 'number' || kind === 'days') {
    return (
      <TextField
        {...common}
        type="number"
        onChange={(e) => onChange(e.target.value)}
        slotProps={{
          htmlInput: {
            step: kind === 'days' ? 1 : 'any',
            min: kind === 'days' ? 0 : undefined,
            inputMode: kind === 'days' ? 'numeric' : 'decimal',
          },
        }}
      />
    );
  }
  if (kind === 'date') {
    return <TextField {...common} type="date" onChange={(e) => onChange(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />;
  }
  return <TextField {...common} onChange={(e) => onChange(e.target.value)} slotProps={{ htmlInput: { maxLength: 500 } }} />;
}

export function ConditionsEditor({
  conditions,
  parameters,
  onChange,
  readOnly,
  errors = {},
}: {
  conditions: ConditionDraft[];
  /** Active parameters that are not templates: what a condition may use. */
  parameters: ParameterJson[];
  onChange: (next: ConditionDraft[]) => void;
  readOnly?: boolean;
  /** By field: 'conditions.0.value' ... */
  errors?: Record<string, string>;
}) {
  const byId = (id: string) => parameters.find((p) => p.id === id);
  const update = (i: number, next: ConditionDraft) => onChange(conditions.map((c, j) => (j === i ? next : c)));

  return (
    <Stack spacing={2}>
      {!parameters.length && (
        <Typography color="text.secondary">No parameters yet: create one in Parameter Management before adding conditions.</Typography>
      )}
      {conditions.length === 0 && parameters.length > 0 && (
        <Typography color="text.secondary">No conditions yet. A rule needs at least one condition to ever match.</Typography>
      )}
      {conditions.map((c, i) => {
        const p = byId(c.parameter);
        const ops = operatorsFor(p?.data_type);
        const kind = valueKind(p, c.operator);
        const last = i === conditions.length - 1;
        return (
          <Paper
            key={c.key}
            variant="outlined"
            role="group"
            aria-labelledby={`condition-${i}-title`}
            sx={{ p: 2, pt: 1 }}
            data-testid="condition-row"
          >
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', minHeight: 36 }}>
              <Typography id={`condition-${i}-title`} sx={{ fontWeight: 600, fontSize: '0.9rem' }}>
                Condition {i + 1}
              </Typography>
              {!readOnly && (
                <IconButton
                  aria-label={`Remove condition ${i + 1}`}
                  onClick={() => onChange(conditions.filter((_, j) => j !== i))}
                  size="small"
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              )}
            </Box>
            <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, alignItems: 'start', mt: 1 }}>
              <TextField
                select
                size="small"
                sx={{ gridColumn: '1 / -1' }}
                label="Parameter"
                id={`condition-${i}-parameter`}
                value={p ? p.id : ''}
                onChange={(e) => update(i, changeParameter(c, byId(e.target.value), p))}
                disabled={readOnly}
                error={!!errors[`conditions.${i}.parameter`]}
                helperText={errors[`conditions.${i}.parameter`] ?? (!p && c.parameter ? `Unknown parameter "${c.parameter}"` : ' ')}
              >
                {parameters.map((x) => (
                  <MenuItem key={x.id} value={x.id}>
                    {x.display_name} ({x.name})
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                size="small"
                label="Operator"
                id={`condition-${i}-operator`}
                value={ops.includes(c.operator) ? c.operator : ''}
                onChange={(e) => update(i, changeOperator(c, e.target.value, p))}
                disabled={readOnly || !p}
                error={!!errors[`conditions.${i}.operator`]}
                helperText={errors[`conditions.${i}.operator`] ?? ' '}
              >
                {ops.map((op) => (
                  <MenuItem key={op} value={op}>
                    {operatorLabel(op, p?.data_type)}
                  </MenuItem>
                ))}
              </TextField>
              <ValueInput
                kind={kind}
                parameter={p}
                value={c.value}
                onChange={(value) => update(i, { ...c, value })}
                disabled={readOnly || !p}
                error={errors[`conditions.${i}.value`]}
                index={i}
              />
            </Box>
            {/* docs/product-spec.md section 5: the logic operator shows on every condition except the last. */}
            {!last && (
              <TextField
                select
                size="small"
                label="Logic"
                id={`condition-${i}-logic`}
                value={c.logic}
                onChange={(e) => update(i, { ...c, logic: e.target.value === 'OR' ? 'OR' : 'AND' })}
                disabled={readOnly}
                sx={{ mt: 1, width: 140 }}
                slotProps={{
                  select: {
                    SelectDisplayProps: {
                      'aria-label': `Logic between condition ${i + 1} and ${i + 2}`,
                      'aria-labelledby': undefined,
                    } as React.HTMLAttributes<HTMLDivElement>,
                  },
                }}
              >
                <MenuItem value="AND">AND</MenuItem>
                <MenuItem value="OR">OR</MenuItem>
              </TextField>
            )}
          </Paper>
        );
      })}
      {!readOnly && (
        <Box>
          <Button
            startIcon={<AddIcon />}
            variant="outlined"
            onClick={() => onChange([...conditions, newCondition(parameters)])}
            disabled={!parameters.length}
          >
            Add Condition
          </Button>
        </Box>
      )}
    </Stack>
  );
}
