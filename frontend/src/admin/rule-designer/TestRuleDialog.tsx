import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { errorDetails, errorMessage } from '../../api';
import { adminApi } from '../providers/dataProvider';
import type { ParameterJson, RuleJson, RuleTestResultJson } from '@cds/contracts';
import { AnswerInput } from './AnswerInput';
import { parametersOfRule, rawAnswers, typedAnswers } from './answers';
import { BoundaryVignettes } from './BoundaryVignettes';
import { TestCases } from './TestCases';
import { TestResultView } from './TestResultView';

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
        {result && <TestResultView result={result} parameters={parameters} />}
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
