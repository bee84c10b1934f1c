import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PeopleIcon from '@mui/icons-material/People';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import { Link as RouterLink } from 'react-router-dom';
import { errorMessage } from '../../api';
import { useAuth } from '../../auth/AuthContext';
import { formatDateTime, greetingName } from '../../components/format';
import { ErrorBlock } from '../../components/StateViews';
import { useAdminQuery } from '../components/useAdminQuery';
import { OVERVIEW } from '../messages';
import { adminApi } from '../providers/dataProvider';
import type { ActivityItemJson, HealthJson } from '@cds/contracts';

function StatCard({ title, value, hint, testId }: { title: string; value: ReactNode; hint: ReactNode; testId: string }) {
  return (
    <Card component="section" aria-label={title}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        <Typography sx={{ fontSize: '2rem', fontWeight: 700 }} data-testid={testId}>
          {value}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** What the System Health card says for a health report. */
export function describeHealth(health: HealthJson | undefined, error: unknown): { value: string; hint: string } {
  if (error && !health) return { value: 'Unavailable', hint: errorMessage(error, 'The health check did not answer.') };
  if (!health) return { value: OVERVIEW.loading, hint: '' };
  if (health.status === 'ok') return { value: OVERVIEW.cards.health.healthy, hint: OVERVIEW.cards.health.healthyHint };
  const down = [health.database === 'down' && 'database', health.queue === 'down' && 'queue'].filter(Boolean).join(' and ');
  return { value: 'Degraded', hint: down ? `The ${down} is not reachable.` : 'Some checks are failing.' };
}

const ACTIVITY_LABEL: Record<ActivityItemJson['type'], string> = {
  signup: 'Sign-up',
  access_requested: 'Access request',
  approval_approved: 'Approved',
  approval_rejected: 'Rejected',
  rule_set_published: 'Published',
  invitation_accepted: 'Invitation',
};

function ActivityFeed() {
  const { data, error, isPending, refetch } = useAdminQuery(['activity'], adminApi.activity);
  if (isPending) {
    return (
      <Stack spacing={1} role="status" aria-label="Loading recent activity">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={44} />
        ))}
      </Stack>
    );
  }
  if (error) return <ErrorBlock title="Recent activity is unavailable." error={error} onRetry={() => void refetch()} />;
  if (!data?.length) return <Typography color="text.secondary">{OVERVIEW.noActivity}</Typography>;
  return (
    <List dense disablePadding aria-label="Recent user activity">
      {data.map((item) => (
        <ListItem key={item.id} disableGutters divider>
          <ListItemText
            primary={
              <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Chip size="small" variant="outlined" label={ACTIVITY_LABEL[item.type] ?? item.type} />
                <span>{item.summary}</span>
              </Box>
            }
            secondary={formatDateTime(item.at)}
          />
        </ListItem>
      ))}
    </List>
  );
}

export default function Overview() {
  const { user, profile } = useAuth();
  const stats = useAdminQuery(['stats'], adminApi.stats);
  const health = useAdminQuery(['health'], adminApi.health);
  const figure = (n: number | undefined) => (stats.error ? '--' : n === undefined ? OVERVIEW.loading : String(n));
  const healthText = describeHealth(health.data, health.error);
  const c = OVERVIEW.cards;

  return (
    <Stack spacing={3} sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Box>
        <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
          Welcome back, {greetingName(profile, user, 'Administrator')}
        </Typography>
        <Typography color="text.secondary">Users, access requests and the health of the system at a glance.</Typography>
      </Box>
      {stats.error ? (
        <Typography role="alert" color="error">
          {errorMessage(stats.error, 'The figures could not be loaded.')}
        </Typography>
      ) : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' } }}>
        <StatCard title={c.totalUsers.title} value={figure(stats.data?.total_users)} hint={c.totalUsers.hint} testId="stat-total-users" />
        <StatCard title={c.activePcps.title} value={figure(stats.data?.active_pcps)} hint={c.activePcps.hint} testId="stat-active-pcps" />
        <StatCard
          title={c.pendingApprovals.title}
          value={figure(stats.data?.pending_approvals)}
          hint={c.pendingApprovals.hint}
          testId="stat-pending-approvals"
        />
        <StatCard title={c.health.title} value={healthText.value} hint={healthText.hint} testId="stat-health" />
      </Box>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' } }}>
        <Card component="section" aria-labelledby="activity-title">
          <CardHeader title={OVERVIEW.activityTitle} slotProps={{ title: { id: 'activity-title', component: 'h2', variant: 'h4' } }} />
          <CardContent sx={{ pt: 0 }}>
            <ActivityFeed />
          </CardContent>
        </Card>
        <Card component="section" aria-labelledby="quick-actions-title">
          <CardHeader title={OVERVIEW.quickActions} slotProps={{ title: { id: 'quick-actions-title', component: 'h2', variant: 'h4' } }} />
          <CardContent sx={{ pt: 0 }}>
            <Stack spacing={1.25}>
              <Button component={RouterLink} to="/admin/users" variant="outlined" startIcon={<PeopleIcon />}>
                Manage Users
              </Button>
              <Button component={RouterLink} to="/admin/approvals" variant="outlined" startIcon={<HowToRegIcon />}>
                Review Approvals
              </Button>
            </Stack>
          </CardContent>
        </Card>
      </Box>
    </Stack>
  );
}
