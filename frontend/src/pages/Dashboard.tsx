import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { ApiError, errorMessage } from '../api';
import { requestPcpAccess } from '../api/endpoints';
import { useAuth, useSignOut } from '../auth/AuthContext';
import { isAdmin } from '@cds/contracts';
import { displayName, formatDate } from '../components/format';
import { Icon } from '../components/Icon';
import { buttonClass } from '../components/LinkButton';
import { RoleBadge } from '../components/RoleBadge';
import { TopBar } from '../components/TopBar';
import { TOASTS } from '../messages';
import { PRIMARY_ACTION, toast } from '../toast/toast';

// The dialog is built with MUI (shared with the PCP settings form): it loads on first use, so
// the dashboard itself loads no MUI (120 kB gzip budget).
const loadDialog = () => import('./EditProfileDialog');
const EditProfileDialog = lazy(loadDialog);

function SystemAccess() {
  const { role, user, status, pendingAccessRequest } = useAuth();
  const [requesting, setRequesting] = useState(false);
  const [requestedHere, setRequested] = useState(false);
  // A request made earlier (before a reload, or on another device) is still pending: the server says so.
  const requested = requestedHere || pendingAccessRequest !== null;

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
      <div className="stack stack--tight">
        <RouterLink to="/admin" className={buttonClass('contained')}>
          Access Admin Console
        </RouterLink>
        <RouterLink to="/chatbot" className={buttonClass('outlined')}>
          Try Diagnostic Assistant
        </RouterLink>
        <RouterLink to="/admin/users" className={buttonClass('outlined')}>
          Manage Users
        </RouterLink>
        <RouterLink to="/admin/approvals" className={buttonClass('outlined')}>
          Review Approvals
        </RouterLink>
      </div>
    );
  }
  if (role === 'pcp') {
    return (
      <div className="stack stack--tight">
        <RouterLink to="/pcp" className={buttonClass('contained')}>
          Access Diagnostic Assistant
        </RouterLink>
        <RouterLink to="/chatbot" className={buttonClass('outlined')}>
          Try AI Chat Assistant
        </RouterLink>
      </div>
    );
  }
  return (
    <div className="stack stack--tight">
      <p className="muted">
        You don't have access to specific features yet. Request PCP access to use the clinical tools; an administrator will review your
        request.
      </p>
      {/* One pending request at a time: a second would only get 409. */}
      <button type="button" className={buttonClass('contained')} onClick={request} disabled={requesting || requested} {...PRIMARY_ACTION}>
        {requesting ? 'Submitting request...' : 'Request PCP Access'}
      </button>
      {requested && (
        <p className="small muted" role="status">
          Your request is awaiting review by an administrator.
        </p>
      )}
      <RouterLink to="/chatbot" className={buttonClass('outlined')}>
        Try Diagnostic Assistant
      </RouterLink>
    </div>
  );
}

export default function Dashboard() {
  const { user, profile, profileLoading, role, status, refreshMe } = useAuth();
  const signOut = useSignOut();
  const [editing, setEditing] = useState(false);
  // Mounted from the first opening on, so the dialog can animate closed.
  const [opened, setOpened] = useState(false);
  if (editing && !opened) setOpened(true);

  const name = profileLoading ? 'Loading...' : displayName(profile, user?.email);

  return (
    <div className="pub page">
      <TopBar
        title="Dashboard"
        actions={
          <button type="button" className={buttonClass('outlined', { secondary: true })} onClick={signOut}>
            <Icon name="logout" />
            Sign Out
          </button>
        }
      />
      <main className="container dash-main">
        <h2>{profileLoading ? 'Welcome' : `Welcome, ${name}`}</h2>
        <div className="grid grid--2">
          <section aria-labelledby="profile-card-title" className="card">
            <div className="card__head">
              <div>
                <h3 id="profile-card-title">Profile Information</h3>
              </div>
              <button
                type="button"
                className={buttonClass('text')}
                onClick={() => setEditing(true)}
                onPointerEnter={() => void loadDialog()}
                onFocus={() => void loadDialog()}
                disabled={profileLoading}
              >
                <Icon name="edit" />
                Edit Profile
              </button>
            </div>
            <div className="card__content">
              <dl className="facts">
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
              </dl>
            </div>
          </section>
          <section aria-labelledby="access-card-title" className="card">
            <div className="card__head">
              <div>
                <h3 id="access-card-title">System Access</h3>
                <p className="small muted">What you can open with your role</p>
              </div>
            </div>
            <div className="card__content">
              <SystemAccess />
            </div>
          </section>
          <section aria-labelledby="about-card-title" className="card grid__wide">
            <div className="card__head">
              <div>
                <h3 id="about-card-title">About</h3>
              </div>
            </div>
            <div className="card__content">
              <p className="muted" style={{ marginBottom: 8 }}>
                This clinical decision-support system helps primary care teams manage diabetes. Administrators publish diagnostic rules
                built from clinical parameters; clinicians answer a short, question-by-question assessment and receive the recommendation of
                the matching rule, with the conditions that led to it.
              </p>
              <p className="muted">
                Recommendations support, and never replace, clinical judgement. Each result names the rule and the rule version it came from
                so it can be reviewed later.
              </p>
            </div>
          </section>
        </div>
      </main>
      {opened && (
        <Suspense fallback={null}>
          <EditProfileDialog
            open={editing}
            profile={profile}
            signedIn={status === 'signedIn'}
            onClose={() => setEditing(false)}
            onSaved={refreshMe}
          />
        </Suspense>
      )}
    </div>
  );
}
