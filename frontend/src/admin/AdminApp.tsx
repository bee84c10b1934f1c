import { lazy, useMemo, useRef } from 'react';
import { Admin, CustomRoutes, memoryStore, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { auth } from '../api';
import { useAuth } from '../auth/AuthContext';
import { theme } from '../theme';
import { AdminLayout } from './layout/AdminLayout';
import Overview from './overview/Overview';
import { createAuthProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { ToastBridge } from './providers/ToastBridge';
import { approvals } from './resources/approvals';
import { cdsClients } from './resources/cds-clients';
import { parameters } from './resources/parameters';
import { recordImports } from './resources/record-imports';
import { rules } from './resources/rules';
import { users } from './resources/users';

const SettingsPage = lazy(() => import('./settings/SettingsPage'));
const ConformancePage = lazy(() => import('./conformance/ConformancePage'));
const MeasureDesignsPage = lazy(() => import('./measures/MeasureDesignsPage'));
const MeasureDesignPage = lazy(() => import('./measures/MeasureDesignPage'));

/**
 * The admin console (lazy-loaded under /admin/*, so public pages never load react-admin).
 * react-admin runs inside the app's router, theme and auth state; nothing it keeps survives
 * the tab (memory store), which matters on a shared clinical workstation.
 */
export default function AdminApp() {
  const { role } = useAuth();
  const roleRef = useRef(role);
  roleRef.current = role;
  const authProvider = useMemo(() => createAuthProvider(auth, () => roleRef.current), []);
  const store = useMemo(() => memoryStore(), []);

  return (
    <Admin
      basename="/admin"
      disableTelemetry
      title="Admin Console"
      dataProvider={dataProvider}
      authProvider={authProvider}
      store={store}
      theme={theme}
      layout={AdminLayout}
      dashboard={Overview}
      notification={ToastBridge}
      loginPage={false}
    >
      <Resource {...users} />
      <Resource {...approvals} />
      <Resource {...parameters} />
      <Resource {...rules} />
      <Resource {...cdsClients} />
      <Resource {...recordImports} />
      <Resource name="rule-sets" />
      <Resource name="invitations" />
      <Resource name="parameter-changes" />
      <CustomRoutes>
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/conformance" element={<ConformancePage />} />
        <Route path="/measures" element={<MeasureDesignsPage />} />
        <Route path="/measures/:id" element={<MeasureDesignPage />} />
      </CustomRoutes>
    </Admin>
  );
}
