import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import type { Assessment } from '../api/types';
import { CASE_STATUS_LABEL, caseStatus, resultSeverity } from '../assessment/outcome';
import { formatDateTime } from '../components/format';
import { SeverityBadge } from '../components/SeverityBadge';

export function CaseStatusChip({ assessment }: { assessment: Assessment }) {
  const status = caseStatus(assessment);
  if (status === 'recommendation') return <SeverityBadge severity={resultSeverity(assessment)} />;
  return <Chip size="small" variant="outlined" color={status === 'in_progress' ? 'primary' : 'default'} label={CASE_STATUS_LABEL[status]} />;
}

export function answerCount(a: Assessment): string {
  const n = Object.keys(a.answers ?? {}).length;
  return `${n} ${n === 1 ? 'answer' : 'answers'}`;
}

export function caseTitle(a: Assessment): string {
  if (!a.is_completed) return 'Assessment in progress';
  return a.recommendation ? a.recommendation.rule_name : 'No recommendation';
}

/** Compact case rows for the dashboard's Recent Cases card. */
export function RecentCaseList({ items }: { items: Assessment[] }) {
  return (
    <List disablePadding aria-label="Recent cases">
      {items.map((a) => (
        <li key={a.id}>
          <ListItemButton component={RouterLink} to={`/pcp/cases/${a.id}`} sx={{ borderRadius: 1.5, gap: 2, alignItems: 'center' }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600 }} noWrap>
                {caseTitle(a)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {formatDateTime(a.created_at)} · {answerCount(a)}
              </Typography>
            </Box>
            <CaseStatusChip assessment={a} />
          </ListItemButton>
        </li>
      ))}
    </List>
  );
}
