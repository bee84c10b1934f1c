import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
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
import { useQueryClient } from '@tanstack/react-query';
import { errorDetails, errorMessage } from '../../api';
import { useAdminQuery } from '../components/useAdminQuery';
import { adminApi } from '../providers/dataProvider';
import { useToast } from '../providers/useToast';
import type { Outcome, RuleJson, TestCaseJson } from '@cds/contracts';
import { outcomeLabel } from './answers';

const OUTCOMES: Array<[string, Outcome]> = [
  ['true', true],
  ['false', false],
  ['unknown', 'unknown'],
];
const outcomeOf = (s: string): Outcome => OUTCOMES.find(([k]) => k === s)?.[1] ?? 'unknown';

/** A rule's saved test cases: each must pass before its rule set can be published. */
export function TestCases({
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
