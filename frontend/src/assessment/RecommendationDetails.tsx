import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Recommendation } from '../api/types';
import { formatValue, operatorSymbol } from '../components/format';
import { SeverityBadge, SeverityIcon, severityLevel } from '../components/SeverityBadge';
import { resultSeverity } from './outcome';

function actionText(a: Recommendation['actions'][number]): string {
  const message = a.message?.trim();
  const value = a.value === undefined || a.value === null ? '' : formatValue(a.value);
  if (message && value && value !== message) return `${message} — ${value}`;
  return message || value || a.type;
}

/** The recommendation with its basis: what was matched, with which answers, by which rule version. */
export function RecommendationDetails({ recommendation, headingLevel = 2 }: { recommendation: Recommendation; headingLevel?: 2 | 3 }) {
  const severity = resultSeverity({ recommendation });
  const h = (n: number) => `h${Math.min(n, 6)}` as 'h2' | 'h3' | 'h4';
  return (
    <Stack spacing={2.5}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <SeverityIcon severity={severity} sx={{ fontSize: 40 }} titleAccess={`${severity} severity`} />
        <Box sx={{ flex: 1 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            <Typography variant="h3" component={h(headingLevel)}>
              {recommendation.rule_name}
            </Typography>
            <SeverityBadge severity={severity} />
          </Stack>
          {recommendation.description && (
            <Typography sx={{ mt: 1, fontSize: '1.05rem' }}>{recommendation.description}</Typography>
          )}
        </Box>
      </Stack>

      {recommendation.actions?.length > 0 && (
        <Box component="section" aria-label="Recommended actions">
          <Typography variant="h5" component={h(headingLevel + 1)} sx={{ mb: 1 }}>
            Recommended actions
          </Typography>
          <Stack component="ul" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {recommendation.actions.map((a, i) => (
              <Box component="li" key={i} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', p: 1.25, border: 1, borderColor: 'divider', borderRadius: 1.5 }}>
                <Chip size="small" variant="outlined" label={a.type} sx={{ textTransform: 'capitalize' }} />
                <Typography sx={{ flex: 1 }}>{actionText(a)}</Typography>
                {a.severity && <SeverityBadge severity={severityLevel(a.severity)} suffix="" />}
              </Box>
            ))}
          </Stack>
        </Box>
      )}

      <Box component="section" aria-label="Basis of this recommendation">
        <Typography variant="h5" component={h(headingLevel + 1)} sx={{ mb: 1 }}>
          Why this recommendation
        </Typography>
        {recommendation.basis?.length ? (
          <Table size="small" aria-label="Conditions met">
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">Parameter</TableCell>
                <TableCell component="th" scope="col">Rule condition</TableCell>
                <TableCell component="th" scope="col">Answer given</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {recommendation.basis.map((b, i) => (
                <TableRow key={`${b.parameter_id}-${i}`}>
                  <TableCell component="th" scope="row">{b.parameter_name}</TableCell>
                  <TableCell>
                    {b.parameter_name} {operatorSymbol(b.operator)} {formatValue(b.threshold)}
                  </TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>{formatValue(b.value)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <Typography color="text.secondary">The rule did not report the conditions it matched.</Typography>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }} data-testid="rule-provenance">
          Rule: <strong>{recommendation.rule_name}</strong>
          {recommendation.rule_version != null && <> · version {String(recommendation.rule_version)}</>}
          {recommendation.rule_set_name && <> · Rule set: {recommendation.rule_set_name}</>}
        </Typography>
      </Box>
    </Stack>
  );
}
