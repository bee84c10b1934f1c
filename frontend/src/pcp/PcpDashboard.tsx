import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import PsychologyIcon from '@mui/icons-material/Psychology';
import { Link as RouterLink } from 'react-router-dom';
import { getAssessmentSummary, listAssessments } from '../api/endpoints';
import type { AssessmentJson as Assessment } from '@cds/contracts';
import { caseStats, isUnanswered } from '../assessment/outcome';
import { useAuth } from '../auth/AuthContext';
import { greetingName } from '../components/format';
import { EmptyBlock, ErrorBlock } from '../components/StateViews';
import { useAsync } from '../components/useAsync';
import { RecentCaseList } from './CaseList';

const PAGE = 100;
/** Stop paging after this many cases; the figures then say what they cover. */
const MAX_CASES = 1000;

export async function loadCaseStats() {
  const first = await listAssessments([0, PAGE - 1]);
  const items: Assessment[] = [...first.data];
  while (items.length < first.total && items.length < MAX_CASES) {
    const next = await listAssessments([items.length, items.length + PAGE - 1]);
    if (!next.data.length) break;
    items.push(...next.data);
  }
  const summary = await getAssessmentSummary().catch(() => null);
  const activeRules = summary && typeof summary.active_rules === 'number' ? summary.active_rules : null;
  return { items, total: first.total, stats: caseStats(first.total, items), activeRules, partial: items.length < first.total };
}

function Stat({ label, value, hint, loading }: { label: string; value: string; hint: string; loading: boolean }) {
  return (
    <Card component="section" aria-label={label}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" component="h2" sx={{ fontWeight: 600 }}>
          {label}
        </Typography>
        {loading ? (
          <Skeleton width={64} height={44} aria-hidden="true" />
        ) : (
          <Typography sx={{ fontSize: '2rem', fontWeight: 700 }} data-testid={`stat-${label}`}>
            {value}
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      </CardContent>
    </Card>
  );
}

export default function PcpDashboard() {
  const { user, profile } = useAuth();
  const { data, error, loading, reload } = useAsync(loadCaseStats, []);
  const stats = data?.stats;
  const recent = data?.items.filter((a) => !isUnanswered(a)).slice(0, 5);

  return (
    <Stack spacing={3} sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Box
        sx={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: { md: 'center' },
          gap: 2,
          flexDirection: { xs: 'column', md: 'row' },
        }}
      >
        <Box>
          <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
            Welcome back, {greetingName(profile, user, 'Doctor')}
          </Typography>
          <Typography color="text.secondary">Your assessments and their outcomes at a glance.</Typography>
        </Box>
        {/* Each button says where it goes: the Diagnostic Assistant is the chat (spec: /chatbot), an assessment the clinical form. */}
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
          <Button component={RouterLink} to="/chatbot" variant="contained" size="large" startIcon={<PsychologyIcon />}>
            Launch Diagnostic Assistant
          </Button>
          <Button component={RouterLink} to="/clinical-form" variant="outlined" size="large" startIcon={<PlayArrowIcon />}>
            New Assessment
          </Button>
        </Box>
      </Box>

      {error ? <ErrorBlock title="Could not load your cases." error={error} onRetry={reload} /> : null}

      <Box
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' } }}
        aria-busy={loading}
      >
        <Stat
          label="Total Cases"
          value={stats ? String(stats.total) : '--'}
          hint="Assessments with at least one answer"
          loading={loading}
        />
        {(loading || data?.activeRules != null) && (
          <Stat
            label="Active Rules"
            value={data?.activeRules != null ? String(data.activeRules) : '--'}
            hint="Published rules in use"
            loading={loading}
          />
        )}
        <Stat
          label="Completed"
          value={stats ? String(stats.completed) : '--'}
          hint={
            stats?.completed ? `${stats.withFinding} with a finding, ${stats.noFinding} with no finding` : 'No completed assessments yet'
          }
          loading={loading}
        />
        <Stat label="In Progress" value={stats ? String(stats.inProgress) : '--'} hint="Started, not yet finished" loading={loading} />
      </Box>
      {!!stats?.unanswered && (
        <Typography variant="body2" color="text.secondary" data-testid="unanswered-note">
          {stats.unanswered === 1
            ? '1 assessment opened but never answered is not counted; it stays in Case History.'
            : `${stats.unanswered} assessments opened but never answered are not counted; they stay in Case History.`}
        </Typography>
      )}
      {data?.partial && (
        <Typography variant="body2" color="text.secondary">
          Completed and In Progress cover your {data.items.length} most recent cases.
        </Typography>
      )}

      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' } }}>
        <Card component="section" aria-labelledby="recent-cases-title">
          <CardHeader
            title="Recent Cases"
            slotProps={{ title: { id: 'recent-cases-title', component: 'h2', variant: 'h4' } }}
            action={
              <Button component={RouterLink} to="/pcp/cases" size="small">
                View all
              </Button>
            }
          />
          <CardContent sx={{ pt: 0 }}>
            {loading && (
              <Stack spacing={1} role="status" aria-label="Loading recent cases">
                {[0, 1, 2].map((i) => (
                  <Skeleton key={i} height={48} />
                ))}
              </Stack>
            )}
            {!loading && recent && recent.length === 0 && (
              <EmptyBlock title="No cases yet">Start a new assessment; it appears here with its result.</EmptyBlock>
            )}
            {!loading && recent && recent.length > 0 && <RecentCaseList items={recent} />}
            {!loading && error ? <Typography color="text.secondary">Recent cases are unavailable.</Typography> : null}
          </CardContent>
        </Card>
        <Card component="section" aria-labelledby="how-title">
          <CardHeader title="How It Works" slotProps={{ title: { id: 'how-title', component: 'h2', variant: 'h4' } }} />
          <CardContent sx={{ pt: 0 }}>
            <Stack component="ol" spacing={2} sx={{ m: 0, p: 0, listStyle: 'none' }}>
              {[
                ['Input patient data', 'Answer one question at a time about the patient.'],
                // Issue 23: no language model is involved in a recommendation; the step says what does happen.
                ['Rule evaluation', 'The published diagnostic rules are checked after every answer; no AI model is involved.'],
                ['Get recommendations', 'See the recommendation, its severity and the conditions it is based on.'],
              ].map(([title, text], i) => (
                <Box component="li" key={title} sx={{ display: 'flex', gap: 1.5 }}>
                  <Box
                    aria-hidden="true"
                    sx={{
                      width: 32,
                      height: 32,
                      borderRadius: '50%',
                      bgcolor: 'primary.main',
                      color: 'primary.contrastText',
                      display: 'grid',
                      placeItems: 'center',
                      fontWeight: 700,
                      flexShrink: 0,
                    }}
                  >
                    {i + 1}
                  </Box>
                  <Box>
                    <Typography sx={{ fontWeight: 600 }}>
                      <span className="visually-hidden">Step {i + 1}: </span>
                      {title}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {text}
                    </Typography>
                  </Box>
                </Box>
              ))}
            </Stack>
          </CardContent>
        </Card>
      </Box>
    </Stack>
  );
}
