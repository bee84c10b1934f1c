import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DashboardIcon from '@mui/icons-material/Dashboard';
import PeopleIcon from '@mui/icons-material/People';
import TuneIcon from '@mui/icons-material/Tune';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import AssignmentIcon from '@mui/icons-material/Assignment';
import ChatIcon from '@mui/icons-material/Chat';
import SettingsIcon from '@mui/icons-material/Settings';
import { useLocation } from 'react-router-dom';
import { ConsoleLayout, type MenuItem } from '../../components/ConsoleLayout';
import { PageSkeleton } from '../../components/PageSkeleton';

/** docs/product-spec.md section 2, "Admin console layout": the menu, in this order. */
export const ADMIN_MENU: MenuItem[] = [
  { label: 'Dashboard', to: '/admin', icon: DashboardIcon, end: true },
  { label: 'User Management', to: '/admin/users', icon: PeopleIcon },
  { label: 'Parameter Management', to: '/admin/parameters', icon: TuneIcon },
  { label: 'Rule Designer', to: '/admin/rules', icon: AccountTreeIcon },
  { label: 'Pending Approvals', to: '/admin/approvals', icon: HowToRegIcon },
  { label: 'Clinical Form', to: '/clinical-form', icon: AssignmentIcon },
  { label: 'AI Chat Assistant', to: '/chatbot', icon: ChatIcon },
  { label: 'Settings', to: '/admin/settings', icon: SettingsIcon },
];

class PageErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Admin page failed', error, info.componentStack);
  }

  override componentDidUpdate(prev: { resetKey: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => this.setState({ error: null })}>
            Retry
          </Button>
        }
      >
        <AlertTitle>This page failed to display.</AlertTitle>
        {this.state.error.message}
      </Alert>
    );
  }
}

/** react-admin's layout slot: the console shell shared with the PCP console. */
export function AdminLayout({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  return (
    // The spec's longest label, "Parameter Management", does not fit 16 rem on one line: let
    // the labels wrap rather than cut them.
    <Box sx={{ '& nav .MuiListItemText-primary': { whiteSpace: 'normal', lineHeight: 1.3 } }}>
      <ConsoleLayout title="Admin Console" menu={ADMIN_MENU}>
        <PageErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageSkeleton />}>{children}</Suspense>
        </PageErrorBoundary>
      </ConsoleLayout>
    </Box>
  );
}
