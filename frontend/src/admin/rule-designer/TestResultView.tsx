import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { unitDisplay, type ParameterJson, type RuleTestResultJson } from '@cds/contracts';
import { formatValue, operatorSymbol } from '../../components/format';
import { SEVERITY_LABEL, severityLevel } from '../../components/SeverityBadge';
import { conditionResultLabel, OUTCOME_COLOR, outcomeLabel, reasonText } from './answers';

/** The outcome of one sandbox run and its trace, values with their units as people write them. */
export function TestResultView({ result, parameters }: { result: RuleTestResultJson; parameters: ParameterJson[] }) {
  const byId = (id: string | null) => parameters.find((p) => p.id === id);
  const name = (id: string | null, ref: string) => byId(id)?.display_name ?? ref;
  // The trace reads values in the parameter's unit: shown as people write it ("mmHg", not "mm[Hg]").
  const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
  const withUnit = (v: unknown, id: string | null) => {
    const unit = numeric(v) ? unitDisplay(byId(id)?.units) : '';
    return unit ? `${formatValue(v)} ${unit}` : formatValue(v);
  };
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
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
                {name(t.parameter_id, t.parameter)} {operatorSymbol(t.canonical_operator ?? t.operator)}{' '}
                {(t.canonical_operator ?? t.operator) === 'within_days'
                  ? `${formatValue(t.threshold)} days`
                  : withUnit(t.threshold, t.parameter_id)}
              </TableCell>
              <TableCell>{withUnit(t.value, t.parameter_id)}</TableCell>
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
                  {cap(a.type)}, {SEVERITY_LABEL[severityLevel(a.severity ?? 'medium')]} severity: {a.message}
                </Typography>
              </li>
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
}
