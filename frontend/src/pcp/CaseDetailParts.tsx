import type { ReactNode } from 'react';
import type { AnswerDetailJson, RuleSetVersionRefJson } from '@cds/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Link as RouterLink } from 'react-router-dom';
import { ApiError } from '../api';
import { AnswerList } from '../components/findings/AnswerList';
import { formatDateTime } from '../components/format';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '../components/StateViews';

/** The frame of one case of the history (an assessment or a chat): back link, title, loading, 404 and error states. */
export function CaseDetailFrame({
  title,
  noun,
  loading,
  error,
  reload,
  children,
}: {
  title: string;
  /** "case", "chat session": how the states name the record. */
  noun: string;
  loading: boolean;
  error: unknown;
  reload: () => void;
  children: ReactNode;
}) {
  const notFound = error instanceof ApiError && error.status === 404;
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto' }}>
      <Button component={RouterLink} to="/pcp/cases" startIcon={<ArrowBackIcon />} sx={{ mb: 2 }}>
        Back to Case History
      </Button>
      <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 2 }}>
        {title}
      </Typography>
      {loading && <LoadingBlock label={`Loading ${noun}`} text={`Loading ${noun}...`} />}
      {!loading && notFound && <EmptyBlock title={`${Noun} not found`}>This {noun} does not exist or is not one of yours.</EmptyBlock>}
      {!loading && error && !notFound ? <ErrorBlock title={`Could not load this ${noun}.`} error={error} onRetry={reload} /> : null}
      {!loading && children}
    </Box>
  );
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Box sx={{ fontWeight: 600 }}>{children}</Box>
    </Box>
  );
}

/** Started, completed, status and the rule-set versions the case was decided with. */
export function CaseFacts({
  record,
  status,
  children,
}: {
  record: { created_at: string; completed_at: string | null; rule_set_versions?: RuleSetVersionRefJson[] };
  status: ReactNode;
  children?: ReactNode;
}) {
  const versions = record.rule_set_versions ?? [];
  return (
    <Card>
      <CardContent sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', alignItems: 'center' }}>
        {children}
        <Fact label="Started">{formatDateTime(record.created_at)}</Fact>
        <Fact label="Completed">{record.completed_at ? formatDateTime(record.completed_at) : 'Not completed'}</Fact>
        <Fact label="Status">{status}</Fact>
        {versions.length > 0 && <Fact label="Rule sets evaluated">{versions.map((r) => `${r.name} v${r.version}`).join(', ')}</Fact>}
      </CardContent>
    </Card>
  );
}

export function CaseSection({ id, title, gap = 1, children }: { id: string; title: string; gap?: number; children: ReactNode }) {
  return (
    <Card component="section" aria-labelledby={id}>
      <CardContent>
        <Typography id={id} variant="h2" sx={{ fontSize: '1.25rem', mb: gap }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** The result of an unfinished case: a line saying so and the way on. */
export function NotCompleted({ text, action }: { text: string; action: ReactNode }) {
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
      <Typography color="text.secondary">{text}</Typography>
      {action}
    </Stack>
  );
}

export function AnswersSection({ id, answers }: { id: string; answers: AnswerDetailJson[] }) {
  return (
    <CaseSection id={id} title="Answers">
      {answers.length === 0 ? <Typography color="text.secondary">No answers were recorded.</Typography> : <AnswerList answers={answers} />}
    </CaseSection>
  );
}
