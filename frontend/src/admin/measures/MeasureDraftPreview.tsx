import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { MeasureDesignJson, MeasureDraftRuleJson, MeasureImpactJson } from '@cds/contracts';
import { errorMessage } from '../../api';
import { adminApi } from '../providers/dataProvider';
import type { ImpactProgress } from '../providers/impactPreviewStream';
import { ImpactPreviewProgress } from '../resources/rules/ImpactPreviewProgress';
import { ImpactCounts, MEASURE_PROGRESS_WORDS } from './ImpactCounts';
import { MeasureDraftActions } from './MeasureDraftActions';

interface DraftRule extends MeasureDraftRuleJson {
  id: string;
  included: boolean;
  texts: string[];
  /** The value each text was worded with (the published one): where a number field splits the words. */
  worded: unknown[];
  /** The published rule's name, which states those values ("Most recent HbA1c or GMI > 9 %"). */
  wordedName: string;
}

const publishedOf = (d: MeasureDesignJson): DraftRule[] =>
  d.populations.flatMap((p) =>
    p.rules.map((r) => ({
      id: r.id,
      name: r.name,
      population: p.code,
      included: true,
      texts: r.conditions.map((c) => c.text),
      worded: r.conditions.map((c) => c.value),
      wordedName: r.name,
      conditions: r.conditions.map((c) => ({ parameter: c.parameter_id, operator: c.operator, value: c.value })),
    })),
  );

/** The saved draft on the published rules' words: a published rule the draft leaves out is shown left out. */
function draftOf(d: MeasureDesignJson): DraftRule[] {
  const published = publishedOf(d);
  if (!d.draft) return published;
  const saved = new Map(d.draft.rules.map((r) => [r.id, r]));
  const same = (p: DraftRule, r: MeasureDraftRuleJson | undefined) => !!r && r.conditions.length === p.conditions.length;
  const kept = published.map((p) =>
    same(p, saved.get(p.id)) ? { ...p, name: saved.get(p.id)!.name, conditions: saved.get(p.id)!.conditions } : { ...p, included: false },
  );
  const extra = d.draft.rules
    .filter((r) => !published.some((p) => p.id === r.id && same(p, r)))
    .map((r, i) => ({
      ...r,
      id: r.id ?? `draft-${i + 1}`,
      included: true,
      texts: r.conditions.map((c) => `${c.parameter} ${c.operator} ${String(c.value)}`),
      worded: r.conditions.map((c) => c.value),
      wordedName: r.name,
    }));
  return [...kept, ...extra];
}

const token = (n: number) => new RegExp(`(^|[^\\d.])${String(n).replace('.', '\\.')}(?![\\d.])`);

/**
 * The rule's name with the cut-points it states moved with the conditions ("> 9 %" becomes "> 8 %"): the Panel's
 * evidence and a gap card's basis show it, and the server refuses a name that still states the old number.
 */
function nameFor(r: DraftRule, conditions: MeasureDraftRuleJson['conditions']): string {
  let name = r.wordedName;
  let moved = true;
  conditions.forEach((c, k) => {
    const was = r.worded[k];
    if (typeof was !== 'number' || was === c.value) return;
    if (typeof c.value === 'number' && token(was).test(name)) name = name.replace(token(was), `$1${c.value}`);
    else moved = false;
  });
  return moved ? name : r.name;
}

const payloadOf = (rules: DraftRule[]): MeasureDraftRuleJson[] =>
  rules.filter((r) => r.included).map(({ id, name, population, conditions }) => ({ id, name, population, conditions }));
/** Rules compared by content (the database keeps an object's keys in its own order). */
const sameRules = (a: MeasureDraftRuleJson[], b: MeasureDraftRuleJson[]) => {
  const key = (rs: MeasureDraftRuleJson[]) =>
    JSON.stringify(rs.map((r) => [r.id, r.name, r.population, r.conditions.map((c) => [c.parameter, c.operator, c.value])]));
  return key(a) === key(b);
};

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
      <ImpactCounts r={r} />
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
 * The measure's draft of population rules (a cut-point changed, a rule left out), started from the published version
 * or the saved draft: its impact over the stored records, and Save, Discard and Publish. Record criteria and value
 * sets stay as shipped.
 */
export function MeasureDraftPreview({ d }: { d: MeasureDesignJson }) {
  const initial = useMemo(() => draftOf(d), [d]);
  const [rules, setRules] = useState(initial);
  const payload = payloadOf(rules);
  const dirty = !sameRules(payload, d.draft ? d.draft.rules : payloadOf(publishedOf(d)));
  const [period, setPeriod] = useState({ start: d.measurement_period.start, end: d.measurement_period.end });
  const [state, setState] = useState<{ loading: boolean; result: MeasureImpactJson | null; error: unknown }>({
    loading: false,
    result: null,
    error: null,
  });
  const [progress, setProgress] = useState<ImpactProgress | null>(null);
  const update = (i: number, change: (r: DraftRule) => DraftRule) => setRules((all) => all.map((r, k) => (k === i ? change(r) : r)));
  const run = () => {
    setState({ loading: true, result: null, error: null });
    setProgress(null);
    adminApi
      .measureImpact(d.id, { rules: payload, periodStart: period.start, periodEnd: period.end }, setProgress)
      .then((result) => setState({ loading: false, result, error: null }))
      .catch((error: unknown) => setState({ loading: false, result: null, error }));
  };
  const label = (code: string) => d.populations.find((p) => p.code === code)?.label ?? code;
  return (
    <Stack spacing={2}>
      <Alert severity="info">
        {d.draft
          ? `Draft version ${d.draft.label}, saved ${d.draft.updated?.email ? `by ${d.draft.updated.email}` : ''} (revision ${d.draft.revision}). `
          : `Editing from version ${d.published.label}. `}
        Change a cut-point or leave a rule out, then preview which stored patients would change population. The measure in use changes only
        when a saved draft is published.
      </Alert>
      <MeasureDraftActions d={d} rules={payload} dirty={dirty} />
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
              typeof r.worded[j] === 'number' ? (
                <Stack key={j} direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
                  <Typography variant="body2">{before(r.texts[j], r.worded[j])}</Typography>
                  <TextField
                    size="small"
                    type="number"
                    sx={{ width: '9rem' }}
                    disabled={!r.included}
                    value={String(c.value)}
                    onChange={(e) =>
                      update(i, (x) => {
                        const conditions = x.conditions.map((y, k) =>
                          k === j ? { ...y, value: e.target.value === '' ? '' : Number(e.target.value) } : y,
                        );
                        return { ...x, name: nameFor(x, conditions), conditions };
                      })
                    }
                    slotProps={{
                      htmlInput: { 'aria-label': `${r.name}: ${before(r.texts[j], r.worded[j])}`, step: 'any' },
                      // The cut-point's unit as the condition reads it ("%", "years"), beside the number typed.
                      input: unitOf(r.texts[j], r.worded[j])
                        ? {
                            endAdornment: <InputAdornment position="end">{unitOf(r.texts[j], r.worded[j])}</InputAdornment>,
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
      {state.loading && <ImpactPreviewProgress progress={progress} words={MEASURE_PROGRESS_WORDS} />}
      {state.error ? <Alert severity="error">{errorMessage(state.error, 'The impact preview is unavailable right now.')}</Alert> : null}
      {state.result && <Impact r={state.result} />}
    </Stack>
  );
}
