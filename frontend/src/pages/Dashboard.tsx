import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import LogoutIcon from '@mui/icons-material/Logout';
import { Link as RouterLink } from 'react-router-dom';
import { ApiError, errorMessage } from '../api';
import { requestPcpAccess } from '../api/endpoints';
import { useAuth, useSignOut } from '../auth/AuthContext';
import { isAdmin } from '../auth/roles';
import { displayName, formatDate } from '../components/format';
import { RoleBadge } from '../components/RoleBadge';
import { TopBar } from '../components/TopBar';
import { TOASTS } from '../messages';
import { toast } from '../toast/toast';
import { EditProfileDialog } from './EditProfileDialog';

function SystemAccess() {
  const { role, user, status } = useAuth();
  const [requesting, setRequesting] = useState(false);
  const [requested, setRequested] = useState(false);

  const request = async () => {
    if (status !== 'signedIn' || !user) {
      toast(TOASTS.pcpRequestNoUser);
      return;
    }
    setRequesting(true);
    try {
      await requestPcpAccess();
      setRequested(true);
      toast(TOASTS.pcpRequestSubmitted);
    } catch (e) {
      console.error('PCP access request failed', e);
      if (e instanceof ApiError && e.status === 409) setRequested(true);
      toast({ title: 'Error', description: errorMessage(e, 'Failed to submit your PCP access request. Please try again.') });
    } finally {
      setRequesting(false);
    }
  };

  if (isAdmin(role)) {
    return (
      <Stack spacing={1.25}>
        <Button component={RouterLink} to="/admin" variant="contained">
          Access Admin Console
        </Button>
        <Button component={RouterLink} to="/chatbot" variant="outlined">
          Try Diagnostic Assistant
        </Button>
        <Button component={RouterLink} to="/admin/users" variant="outlined">
          Manage Users
        </Button>
        <Button component={RouterLink} to="/admin/approvals" variant="outlined">
          Review Approvals
        </Button>
      </Stack>
    );
  }
  if (role === 'pcp') {
    return (
      <Stack spacing={1.25}>
        <Button component={RouterLink} to="/pcp" variant="contained">
          Access Diagnostic Assistant
        </Button>
        <Button component={RouterLink} to="/chatbot" variant="outlined">
          Try AI Chat Assistant
        </Button>
      </Stack>
    );
  }
  return (
    <Stack spacing={1.25}>
      <Typography color="text.secondary">
        You don't have access to specific features yet. Request PCP access to use the clinical tools; an administrator will
        review your request.
      </Typography>
      <Button variant="contained" onClick={request} disabled={requesting}>
        {requesting ? 'Submitting request...' : 'Request PCP Access'}
      </Button>
      {requested && (
        <Typography variant="body2" color="text.secondary" role="status">
          Your request is awaiting review by an administrator.
        </Typography>
      )}
      <Button component={RouterLink} to="/chatbot" variant="outlined">
        Try Diagnostic Assistant
      </Button>
    </Stack>
  );
}

export default function Dashboard() {
  const { user, profile, profileLoading, role, status, refreshMe } = useAuth();
  const signOut = useSignOut();
  const [editing, setEditing] = useState(false);

  const name = profileLoading ? 'Loading...' : displayName(profile, user?.email);

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <TopBar
        title="Dashboard"
        actions={
          <Button variant="outlined" color="secondary" startIcon={<LogoutIcon />} onClick={signOut}>
            Sign Out
          </Button>
        }
      />
      <Container component="main" maxWidth="lg" sx={{ py: 4 }}>
        <Typography variant="h2" sx={{ mb: 3 }}>
          {profileLoading ? 'Welcome' : `Welcome, ${name}`}
        </Typography>
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
          <Card component="section" aria-labelledby="profile-card-title">
            <CardHeader
              title="Profile Information"
              slotProps={{ title: { id: 'profile-card-title', component: 'h3', variant: 'h4' } }}
              action={
                <Button startIcon={<EditIcon />} onClick={() => setEditing(true)} disabled={profileLoading}>
                  Edit Profile
                </Button>
              }
            />
            <CardContent sx={{ pt: 0 }}>
              <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1.25, '& dt': { color: 'text.secondary' }, '& dd': { m: 0, fontWeight: 500 } }}>
                <dt>Name</dt>
                <dd data-testid="display-name">{name}</dd>
                <dt>Email</dt>
                <dd>{user?.email ?? '—'}</dd>
                <dt>Member since</dt>
                <dd>{formatDate(user?.created_at)}</dd>
                <dt>Role</dt>
                <dd>
                  <RoleBadge role={role} />
                </dd>
              </Box>
            </CardContent>
          </Card>
          <Card component="section" aria-labelledby="access-card-title">
            <CardHeader title="System Access" subheader="What you can open with your role" slotProps={{ title: { id: 'access-card-title', component: 'h3', variant: 'h4' } }} />
            <CardContent sx={{ pt: 0 }}>
              <SystemAccess />
            </CardContent>
          </Card>
          <Card component="section" aria-labelledby="about-card-title" sx={{ gridColumn: { md: '1 / -1' } }}>
            <CardHeader title="About" slotProps={{ title: { id: 'about-card-title', component: 'h3', variant: 'h4' } }} />
            <CardContent sx={{ pt: 0 }}>
              <Typography color="text.secondary" sx={{ mb: 1 }}>
                This clinical decision-support system helps primary care teams manage diabetes. Administrators publish
                diagnostic rules built from clinical parameters; clinicians answer a short, question-by-question
                assessment and receive the recommendation of the matching rule, with the conditions that led to it.
              </Typography>
              <Typography color="text.secondary">
                Recommendations support, and never replace, clinical judgement. Each result names the rule and the rule
                version it came from so it can be reviewed later.
              </Typography>
            </CardContent>
          </Card>
        </Box>
      </Container>
      <EditProfileDialog open={editing} profile={profile} signedIn={status === 'signedIn'} onClose={() => setEditing(false)} onSaved={refreshMe} />
    </Box>
  );
}
