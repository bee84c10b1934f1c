import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import type { AssessmentJson as Assessment, ChatMatchedRuleJson as ChatMatchedRule, ChatSessionJson as ChatSession } from '@cds/contracts';
import { findingSeverity, findingsOf } from '../components/findings/clinicalFormat';
import { answeredCount, CASE_STATUS_LABEL, caseStatus, isUnanswered, resultSeverity, type CaseStatus } from '../assessment/outcome';
import { formatDateTime } from '../components/format';
import { SeverityBadge, type SeverityLevel } from '../components/SeverityBadge';

export const CASE_KIND_LABEL = { assessment: 'Clinical assessment', chat: 'Diagnostic Assistant chat' } as const;

const SEVERITY_ORDER: SeverityLevel[] = ['critical', 'high', 'medium', 'low'];

/** A chat's findings: the rule the clinician chose to follow first, then every other rule that matched. */
export function chatFindings(s: Pick<ChatSession, 'matched_rules'>): ChatMatchedRule[] {
  const rules = s.matched_rules ?? [];
  return [...rules.filter((r) => r.selected), ...rules.filter((r) => !r.selected)];
}

export function chatStatus(s: Pick<ChatSession, 'is_completed' | 'matched_rules'>): CaseStatus {
  if (!s.is_completed) return 'in_progress';
  return s.matched_rules?.length ? 'recommendation' : 'no_recommendation';
}

export function chatTitle(s: Pick<ChatSession, 'is_completed' | 'matched_rules'>): string {
  const findings = chatFindings(s);
  if (!s.is_completed) return findings.length ? `Awaiting a choice: ${findings.length} recommendations` : 'Conversation in progress';
  if (!findings.length) return 'No recommendation';
  return findings.length > 1 ? `${findings[0].rule_name} (+${findings.length - 1} more)` : findings[0].rule_name;
}

/**
 * A finished chat's badge shows its most severe finding, not only the one followed: a critical finding
 * the clinician did not choose must still stand out in the history.
 */
export function ChatStatusChip({ session }: { session: Pick<ChatSession, 'is_completed' | 'matched_rules'> }) {
  const status = chatStatus(session);
  if (status === 'recommendation') {
    const levels = session.matched_rules.map((r) => findingSeverity(r));
    const worst = SEVERITY_ORDER.find((l) => levels.includes(l)) ?? 'low';
    return <SeverityBadge severity={worst} />;
  }
  return (
    <Chip size="small" variant="outlined" color={status === 'in_progress' ? 'primary' : 'default'} label={CASE_STATUS_LABEL[status]} />
  );
}

export function CaseStatusChip({ assessment }: { assessment: Assessment }) {
  const status = caseStatus(assessment);
  if (status === 'recommendation') return <SeverityBadge severity={resultSeverity(assessment)} />;
  return (
    <Chip size="small" variant="outlined" color={status === 'in_progress' ? 'primary' : 'default'} label={CASE_STATUS_LABEL[status]} />
  );
}

export function answerCount(a: Assessment): string {
  const n = answeredCount(a);
  return `${n} ${n === 1 ? 'answer' : 'answers'}`;
}

export function caseTitle(a: Assessment): string {
  if (isUnanswered(a)) return 'Opened, never answered';
  if (!a.is_completed) return 'Assessment in progress';
  const findings = findingsOf(a);
  if (!findings.length) return 'No recommendation';
  return findings.length > 1 ? `${findings[0].rule_name} (+${findings.length - 1} more)` : findings[0].rule_name;
}

/** Compact case rows for the dashboard's Recent Cases card. */
export function RecentCaseList({ items }: { items: Assessment[] }) {
  return (
    <List disablePadding aria-label="Recent cases">
      {items.map((a) => (
        <li key={a.id}>
          {/* On a phone the badge moves below a title too long to share its line; words are never cut or broken. */}
          <ListItemButton
            component={RouterLink}
            to={`/pcp/cases/${a.id}`}
            sx={{ borderRadius: 1.5, columnGap: 2, rowGap: 0.5, alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'break-word', wordBreak: 'normal' }}>{caseTitle(a)}</Typography>
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
