import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { useQueryClient } from '@tanstack/react-query';
import { errorDetails, errorMessage } from '../../api';
import { formatValue, operatorSymbol } from '../../components/format';
import { useAdminQuery } from '../components/useAdminQuery';
import { adminApi } from '../providers/dataProvider';
import { useToast } from '../providers/useToast';
import { unitDisplay } from '@cds/contracts';
import type { BoundaryVignetteJson, Outcome, ParameterJson, RuleJson, RuleTestResultJson, TestCaseJson } from '@cds/contracts';
import {
  answerKind,
  conditionResultLabel,
  NOT_KNOWN,
  OUTCOME_COLOR,
  outcomeLabel,
  parametersOfRule,
  rawAnswers,
  reasonText,
  typedAnswers,
} from './answers';
import { selectOptions } from './conditionRules';

function AnswerInput({ p, value, onChange, error }: { p: ParameterJson; value: string; onChange: (v: string) => void; error?: string }) {
  const kind = answerKind(p);
  const label = `${p.display_name}${p.units ? ` (${p.units})` : ''}`;
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

function ResultView({ result, parameters }: { result: RuleTestResultJson; parameters: ParameterJson[] }) {
  const name = (id: string | null, ref: string) => parameters.find((p) => p.id === id)?.display_name ?? ref;
  return (
    <Box component="section" aria-labelledby="test-outcome" sx={{ mt: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography id="test-outcome" component="h3" variant="h5">
          Outcome
        </Typography>
        <Chip
          color={OUTCOME_COLOR(result.outcome) === 'default' ? 'default' : OUTCOME_COLOR(result.outcome)}
          label={outcomeLabel(result.outcome)}
          data-testid="test-outcome"
        />
      </Box>
      <Table size="small" aria-label="Trace" sx={{ mt: 1 }}>
        <TableHead>
          <TableRow>
            <TableCell>#</TableCell>
            <TableCell>Condition</TableCell>
            <TableCell>Answer</TableCell>
            <TableCell>Result</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {result.trace.map((t) => (
            <TableRow key={t.index}>
              <TableCell>{t.index + 1}</TableCell>
              <TableCell>
                {name(t.parameter_id, t.parameter)} {operatorSymbol(t.canonical_operator ?? t.operator)} {formatValue(t.threshold)}
              </TableCell>
              <TableCell>{formatValue(t.value)}</TableCell>
              <TableCell>
                {conditionResultLabel(t.result)}
                {t.reason ? ` (${reasonText(t.reason)})` : ''}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {result.matched && result.actions.length > 0 && (
        <Box sx={{ mt: 1.5 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            Actions the clinician would see
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {result.actions.map((a, i) => (
              <li key={a.id ?? i}>
                <Typography variant="body2">
                  [{a.type}, {a.severity ?? 'medium'}] {a.message}
                </Typography>
              </li>
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
}

const OUTCOMES: Array<[string, Outcome]> = [
  ['true', true],
  ['false', false],
  ['unknown', 'unknown'],
];
const outcomeOf = (s: string): Outcome => OUTCOMES.find(([k]) => k === s)?.[1] ?? 'unknown';

function TestCases({
  rule,
  onLoad,
  currentAnswers,
  lastOutcome,
}: {
  rule: RuleJson;
  onLoad: (answers: Record<string, unknown>) => void;
  currentAnswers: () => Record<string, unknown> | null;
  lastOutcome: Outcome | null;
}) {
  const cases = useAdminQuery(['rules', rule.id, 'test-cases'], () => adminApi.testCases(rule.id));
  const queryClient = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState<{ id: string | null; name: string; expected: string; withAnswers: boolean } | null>(null);
  // Issue 10 item 17: no error on the name before anyone has typed in it.
  const [nameTouched, setNameTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['rules', rule.id, 'test-cases'] });

  const save = async () => {
    if (!editing || !editing.name.trim()) return;
    const answers = editing.withAnswers || !editing.id ? currentAnswers() : undefined;
    if (answers === null) return; // the answer form shows what to fix
    setBusy(true);
    setError(null);
    try {
      const body = { name: editing.name.trim(), expected_outcome: outcomeOf(editing.expected), ...(answers ? { answers } : {}) };
      if (editing.id) await adminApi.updateTestCase(rule.id, editing.id, body);
      else await adminApi.createTestCase(rule.id, { ...body, answers: answers ?? {} });
      toast({ title: 'Test case saved', description: `"${body.name}" is checked again before every publish.`, variant: 'success' });
      setEditing(null);
      await refresh();
    } catch (e) {
      setError([errorMessage(e, 'The test case could not be saved.'), ...errorDetails(e)].join(' '));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (c: TestCaseJson) => {
    try {
      await adminApi.removeTestCase(rule.id, c.id);
      await refresh();
    } catch (e) {
      toast({ title: 'Error', description: errorMessage(e, 'The test case could not be deleted.') });
    }
  };

  return (
    <Box component="section" aria-labelledby="test-cases-title">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="test-cases-title" component="h3" variant="h5">
          Saved test cases
        </Typography>
        <Button
          size="small"
          onClick={() => {
            setNameTouched(false);
            setEditing({ id: null, name: '', expected: lastOutcome === null ? 'true' : String(lastOutcome), withAnswers: true });
          }}
        >
          Save answers as test case
        </Button>
      </Box>
      {cases.isPending && <Typography variant="body2">Loading...</Typography>}
      {cases.error ? <Typography color="error">{errorMessage(cases.error, 'The test cases could not be loaded.')}</Typography> : null}
      {cases.data && !cases.data.length && (
        <Typography variant="body2" color="text.secondary">
          None yet. Saved cases must pass before the rule set can be published.
        </Typography>
      )}
      {!!cases.data?.length && (
        <Table size="small" aria-label="Saved test cases">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Expected</TableCell>
              <TableCell>Now</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {cases.data.map((c) => (
              <TableRow key={c.id}>
                <TableCell>{c.name}</TableCell>
                <TableCell>{outcomeLabel(c.expected_outcome)}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={c.passed ? 'success' : 'error'}
                    label={c.passed ? 'Passes' : `Fails (${outcomeLabel(c.actual_outcome)})`}
                  />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Button size="small" onClick={() => onLoad(c.answers)} aria-label={`Load the answers of ${c.name}`}>
                    Load
                  </Button>
                  <IconButton
                    size="small"
                    aria-label={`Edit ${c.name}`}
                    onClick={() => setEditing({ id: c.id, name: c.name, expected: String(c.expected_outcome), withAnswers: false })}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton size="small" aria-label={`Delete ${c.name}`} onClick={() => void remove(c)}>
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {editing && (
        <Box
          component="form"
          aria-label={editing.id ? 'Edit test case' : 'New test case'}
          sx={{ mt: 2, p: 2, border: 1, borderColor: 'divider', borderRadius: 1.5 }}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Stack spacing={1.5}>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              size="small"
              label="Test case name"
              required
              value={editing.name}
              onChange={(e) => {
                setNameTouched(true);
                setEditing({ ...editing, name: e.target.value });
              }}
              onBlur={() => setNameTouched(true)}
              slotProps={{ htmlInput: { maxLength: 200 } }}
              error={nameTouched && !editing.name.trim()}
              helperText={nameTouched && !editing.name.trim() ? 'Please name the test case.' : ' '}
            />
            <TextField
              select
              size="small"
              label="Expected outcome"
              value={editing.expected}
              onChange={(e) => setEditing({ ...editing, expected: e.target.value })}
            >
              {OUTCOMES.map(([k, o]) => (
                <MenuItem key={k} value={k}>
                  {outcomeLabel(o)}
                </MenuItem>
              ))}
            </TextField>
            {editing.id && (
              <TextField
                select
                size="small"
                label="Answers"
                value={editing.withAnswers ? 'current' : 'keep'}
                onChange={(e) => setEditing({ ...editing, withAnswers: e.target.value === 'current' })}
              >
                <MenuItem value="keep">Keep the saved answers</MenuItem>
                <MenuItem value="current">Replace with the answers above</MenuItem>
              </TextField>
            )}
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button type="submit" variant="contained" size="small" disabled={busy || !editing.name.trim()}>
                {busy ? 'Saving...' : 'Save test case'}
              </Button>
              <Button size="small" color="secondary" onClick={() => setEditing(null)} disabled={busy}>
                Cancel
              </Button>
            </Box>
          </Stack>
        </Box>
      )}
    </Box>
  );
}

/** The sandbox: answers in, outcome and trace out, for the rule as saved. */
export function TestRuleDialog({ rule, parameters, onClose }: { rule: RuleJson | null; parameters: ParameterJson[]; onClose: () => void }) {
  const [raw, setRaw] = useState<Record<string, string>>({});
  const [referenceDate, setReferenceDate] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [result, setResult] = useState<RuleTestResultJson | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    setRaw({});
    setProblems({});
    setResult(null);
    setError(null);
  }, [rule?.id]);

  if (!rule) return null;
  const used = parametersOfRule(rule, parameters);

  const currentAnswers = () => {
    const { answers, problems: p } = typedAnswers(raw, used);
    setProblems(p);
    return Object.keys(p).length ? null : answers;
  };

  const run = async () => {
    const answers = currentAnswers();
    if (!answers) return;
    setRunning(true);
    setError(null);
    try {
      setResult(await adminApi.testRule(rule.id, answers, referenceDate || undefined));
    } catch (e) {
      setError([errorMessage(e, 'The test could not run.'), ...errorDetails(e)].join(' '));
    } finally {
      setRunning(false);
    }
  };

  const needsDate = rule.conditions.some((c) => c.operator === 'within_days');

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="test-rule-title"
      maxWidth="md"
      fullWidth
      slotProps={{ paper: { sx: { maxHeight: '90vh' } } }}
    >
      <DialogTitle id="test-rule-title">Test Rule: {rule.name}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Runs the rule as saved (not yet published) on the answers below. Nothing is recorded.
        </Typography>
        {!used.length && <Alert severity="info">This rule has no conditions to answer.</Alert>}
        <Box
          component="form"
          aria-label="Test answers"
          onSubmit={(e) => {
            e.preventDefault();
            void run();
          }}
        >
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {used.map((p) => (
              <AnswerInput
                key={p.id}
                p={p}
                value={raw[p.id] ?? ''}
                onChange={(v) => setRaw({ ...raw, [p.id]: v })}
                error={problems[p.id]}
              />
            ))}
            {needsDate && (
              <TextField
                size="small"
                type="date"
                label="Reference date"
                value={referenceDate}
                onChange={(e) => setReferenceDate(e.target.value)}
                helperText="“Within days” counts back from this day (default: today)."
                slotProps={{ inputLabel: { shrink: true } }}
              />
            )}
          </Box>
          <Button
            type="submit"
            variant="contained"
            startIcon={running ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <PlayArrowIcon />}
            disabled={running}
            sx={{ mt: 2 }}
          >
            {running ? 'Running...' : 'Run Test'}
          </Button>
        </Box>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        {result && <ResultView result={result} parameters={parameters} />}
        <Divider sx={{ my: 2 }} />
        <TestCases
          rule={rule}
          onLoad={(a) => {
            setRaw(rawAnswers(a));
            setResult(null);
          }}
          currentAnswers={currentAnswers}
          lastOutcome={result?.outcome ?? null}
        />
        <Divider sx={{ my: 2 }} />
        <BoundaryVignettes ruleSetId={rule.rule_set_id} ruleId={rule.id} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

const POSITION = { [-1]: 'one step below', 0: 'on the cut-point', 1: 'one step above' } as const;

/**
 * Generated boundary vignettes: for every cut-point the rule set uses, one recorded step below it,
 * on it and one step above, with what a PCP would get for that value (every active published set
 * included). Any of them can be saved as a rule-set test case expecting that result.
 */
export function BoundaryVignettes({ ruleSetId, ruleId }: { ruleSetId: string; ruleId?: string }) {
  const list = useAdminQuery(['rule-sets', ruleSetId, 'boundary-vignettes'], () => adminApi.boundaryVignettes(ruleSetId));
  const saved = useAdminQuery(['rule-sets', ruleSetId, 'vignettes'], () => adminApi.vignettes(ruleSetId));
  const queryClient = useQueryClient();
  const toast = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  const nameOf = (v: BoundaryVignetteJson) => `${v.display_name} ${v.value}${v.units ? ` ${unitDisplay(v.units)}` : ''}`;
  const savedNames = new Set((saved.data ?? []).map((v) => v.name));

  const save = async (v: BoundaryVignetteJson) => {
    const name = nameOf(v);
    setBusy(name);
    try {
      await adminApi.createVignette(ruleSetId, {
        name,
        answers: v.answers,
        expected_fired: v.result.fired.map((f) => f.rule_id),
        expected_primary: v.result.primary?.rule_id ?? null,
      });
      toast({ title: 'Test case saved', description: `"${name}" is checked again before every publish.`, variant: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['rule-sets', ruleSetId] });
    } catch (e) {
      toast({ title: 'Error', description: [errorMessage(e, 'The test case could not be saved.'), ...errorDetails(e)].join(' ') });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Box component="section" aria-labelledby="boundary-vignettes-title">
      <Typography id="boundary-vignettes-title" component="h3" variant="h5">
        Boundary vignettes
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Each cut-point the rule set uses, one recorded step below, on it and one step above, with the findings a PCP would get.
      </Typography>
      {list.isPending && <Typography variant="body2">Loading...</Typography>}
      {list.error ? <Typography color="error">{errorMessage(list.error, 'The boundary vignettes could not be loaded.')}</Typography> : null}
      {list.data && !list.data.length && (
        <Typography variant="body2" color="text.secondary">
          No numeric cut-points in this rule set.
        </Typography>
      )}
      {!!list.data?.length && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Boundary vignettes">
            <TableHead>
              <TableRow>
                <TableCell>Value</TableCell>
                <TableCell>Primary finding</TableCell>
                <TableCell>Rules that fire</TableCell>
                <TableCell align="right">Save</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.map((v) => {
                const name = nameOf(v);
                const mine = !ruleId || v.result.fired.some((f) => f.rule_id === ruleId);
                return (
                  <TableRow key={`${v.parameter_id}:${v.cut_point}:${v.position}`} selected={mine && !!ruleId}>
                    <TableCell>
                      <Typography variant="body2">{name}</Typography>
                      <Typography variant="caption" color="text.secondary">
                        {POSITION[v.position]} {v.cut_point}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      {v.result.primary ? (
                        <Chip
                          size="small"
                          color={SEVERITY_COLOR[v.result.primary.severity] ?? 'default'}
                          label={v.result.primary.rule_name}
                        />
                      ) : (
                        <Typography variant="body2" color="text.secondary">
                          No rule fires
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>
                      <Typography variant="body2">{v.result.fired.map((f) => f.rule_name).join(', ') || '—'}</Typography>
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        onClick={() => void save(v)}
                        disabled={busy !== null || savedNames.has(name)}
                        aria-label={`${savedNames.has(name) ? 'Saved' : 'Save as test case'}: ${name}`}
                      >
                        {savedNames.has(name) ? 'Saved' : 'Save as test case'}
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}

const SEVERITY_COLOR: Record<string, 'error' | 'warning' | 'info' | 'default'> = {
  critical: 'error',
  high: 'warning',
  medium: 'info',
  low: 'default',
};
