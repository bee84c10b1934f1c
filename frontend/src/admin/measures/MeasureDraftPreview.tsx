import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { MeasureDesignJson, MeasureDraftRuleJson, MeasureImpactJson } from '@cds/contracts';
import { errorMessage } from '../../api';
import { adminApi } from '../providers/dataProvider';

interface DraftRule extends MeasureDraftRuleJson {
  included: boolean;
  texts: string[];
}

const draftOf = (d: MeasureDesignJson): DraftRule[] =>
  d.populations.flatMap((p) =>
    p.rules.map((r) => ({
      id: r.id,
      name: r.name,
      population: p.code,
      included: true,
      texts: r.conditions.map((c) => c.text),
      conditions: r.conditions.map((c) => ({ parameter: c.parameter_id, operator: c.operator, value: c.value })),
    })),
  );

/** A condition's words around its value ("Most recent HbA1c or GMI (lowest that day) >", "%"), for the value's own field. */
const around = (text: string, value: unknown): [string, string] => {
  const at = text.lastIndexOf(` ${String(value)}`);
  return at > 0 ? [text.slice(0, at), text.slice(at + String(value).length + 1).trim()] : [text, ''];
};
const before = (text: string, value: unknown) => around(text, value)[0];
const unitOf = (text: string, value: unknown) => around(text, value)[1];

function Impact({ r }: { r: MeasureImpactJson }) {
  const same = r.versions.draft === r.versions.current;
  return (
    <Stack spacing={2} component="section" aria-label="Impact of the draft">
      <Alert severity={r.changed ? 'warning' : 'success'}>
        {r.changed
          ? `${r.changed} of ${r.patients} stored patients would change population for ${r.period.start} to ${r.period.end}.`
          : `No stored patient (of ${r.patients}) would change population for ${r.period.start} to ${r.period.end}.`}{' '}
        {same
          ? 'The draft is the current version.'
          : `As a measure version the draft would be ${r.versions.draft}; results stored under ${r.versions.current} would not count for it.`}
      </Alert>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Patients per population, now and with the draft">
          <TableHead>
            <TableRow>
              <TableCell>Population</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                Now
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                With the draft
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {r.counts.map((c) => (
              <TableRow key={c.population}>
                <TableCell>{c.label}</TableCell>
                <TableCell align="right">{c.before}</TableCell>
                <TableCell align="right" sx={{ fontWeight: c.before === c.after ? 400 : 700 }}>
                  {c.after}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {r.analysis.findings.map((f, i) => (
        <Alert key={`${f.code}-${i}`} severity={f.severity}>
          <strong>{f.population}:</strong> {f.message}
        </Alert>
      ))}
      {r.changed > 0 && (
        <Box component="ul" aria-label="Patients who would change population" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
          {r.changed_patients.map((p) => (
            <Box component="li" key={p.patient_id} sx={{ py: 1, borderTop: 1, borderColor: 'divider' }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {p.name}
              </Typography>
              <Typography variant="body2">{p.changes.join('; ')}</Typography>
            </Box>
          ))}
          {r.changed > r.changed_patients.length && (
            <Typography component="li" variant="body2" color="text.secondary">
              and {r.changed - r.changed_patients.length} more
            </Typography>
          )}
        </Box>
      )}
    </Stack>
  );
}

/**
 * A draft of the measure's population rules (a cut-point changed, a rule left out) and its impact over the
 * stored records: which patients would change population. Nothing is saved; publishing drafts is not offered yet.
 */
export function MeasureDraftPreview({ d }: { d: MeasureDesignJson }) {
  const initial = useMemo(() => draftOf(d), [d]);
  const [rules, setRules] = useState(initial);
  const [period, setPeriod] = useState({ start: d.measurement_period.start, end: d.measurement_period.end });
  const [state, setState] = useState<{ loading: boolean; result: MeasureImpactJson | null; error: unknown }>({
    loading: false,
    result: null,
    error: null,
  });
  const update = (i: number, change: (r: DraftRule) => DraftRule) => setRules((all) => all.map((r, k) => (k === i ? change(r) : r)));
  const run = () => {
    setState({ loading: true, result: null, error: null });
    adminApi
      .measureImpact(d.id, {
        rules: rules.filter((r) => r.included).map(({ id, name, population, conditions }) => ({ id, name, population, conditions })),
        periodStart: period.start,
        periodEnd: period.end,
      })
      .then((result) => setState({ loading: false, result, error: null }))
      .catch((error: unknown) => setState({ loading: false, result: null, error }));
  };
  const label = (code: string) => d.populations.find((p) => p.code === code)?.label ?? code;
  return (
    <Stack spacing={2}>
      <Alert severity="info">
        Change a cut-point or leave a rule out, then preview which stored patients would change population. The draft is not saved and the
        measure in use does not change.
      </Alert>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label="Period start"
          type="date"
          size="small"
          value={period.start}
          onChange={(e) => setPeriod((p) => ({ ...p, start: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="Period end"
          type="date"
          size="small"
          value={period.end}
          onChange={(e) => setPeriod((p) => ({ ...p, end: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      {rules.map((r, i) => (
        <Paper
          key={r.id}
          variant="outlined"
          sx={{ p: 1.5, opacity: r.included ? 1 : 0.6 }}
          aria-label={`Draft rule ${r.name}`}
          component="section"
        >
          <FormControlLabel
            control={<Checkbox checked={r.included} onChange={(e) => update(i, (x) => ({ ...x, included: e.target.checked }))} />}
            label={
              <Typography variant="body2">
                <strong>{label(r.population)}:</strong> {r.name}
              </Typography>
            }
          />
          <Stack spacing={1} sx={{ pl: 4 }}>
            {r.conditions.map((c, j) =>
              typeof initial[i].conditions[j].value === 'number' ? (
                <Stack key={j} direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
                  <Typography variant="body2">{before(r.texts[j], initial[i].conditions[j].value)}</Typography>
                  <TextField
                    size="small"
                    type="number"
                    sx={{ width: '9rem' }}
                    disabled={!r.included}
                    value={String(c.value)}
                    onChange={(e) =>
                      update(i, (x) => ({
                        ...x,
                        conditions: x.conditions.map((y, k) =>
                          k === j ? { ...y, value: e.target.value === '' ? '' : Number(e.target.value) } : y,
                        ),
                      }))
                    }
                    slotProps={{
                      htmlInput: { 'aria-label': `${r.name}: ${before(r.texts[j], initial[i].conditions[j].value)}`, step: 'any' },
                      // The cut-point's unit as the condition reads it ("%", "years"), beside the number typed.
                      input: unitOf(r.texts[j], initial[i].conditions[j].value)
                        ? {
                            endAdornment: (
                              <InputAdornment position="end">{unitOf(r.texts[j], initial[i].conditions[j].value)}</InputAdornment>
                            ),
                          }
                        : {},
                    }}
                  />
                </Stack>
              ) : (
                <Typography key={j} variant="body2">
                  {r.texts[j]}
                </Typography>
              ),
            )}
          </Stack>
        </Paper>
      ))}
      <Box>
        <Button
          variant="contained"
          onClick={run}
          disabled={state.loading}
          startIcon={state.loading ? <CircularProgress size={16} /> : null}
        >
          Preview impact
        </Button>
      </Box>
      {state.error ? <Alert severity="error">{errorMessage(state.error, 'The impact preview is unavailable right now.')}</Alert> : null}
      {state.result && <Impact r={state.result} />}
    </Stack>
  );
}
