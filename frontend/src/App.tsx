import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { RedirectIfSignedIn, RequireRole } from './auth/guards';
import { ADMIN_ROLES, CLINICAL_ROLES } from '@cds/contracts';
import { AppShellSkeleton } from './components/AppShellSkeleton';
import { PageSkeleton } from './components/PageSkeleton';
import Landing from './pages/Landing';

// Landing is in the entry chunk (first paint of /). Everything else loads on demand; the admin
// console (react-admin, React Flow) never loads for /, /auth or /dashboard.
// MUI's theme loads with the MUI pages (consoles, invitations), never on the public pages.
const MuiLayout = lazy(() => import('./MuiProviders'));
const AuthPage = lazy(() => import('./pages/AuthPage'));
const Dashboard = lazy(() => import('./pages/Dashboard'));
const Unauthorized = lazy(() => import('./pages/Unauthorized'));
const NotFound = lazy(() => import('./pages/NotFound'));
const InvitePage = lazy(() => import('./pages/InvitePage'));
const AdminApp = lazy(() => import('./admin/AdminApp'));
const PcpLayout = lazy(() => import('./pcp/PcpLayout'));
const PcpDashboard = lazy(() => import('./pcp/PcpDashboard'));
const CaseHistory = lazy(() => import('./pcp/CaseHistory'));
const CaseDetail = lazy(() => import('./pcp/CaseDetail'));
const ChatCaseDetail = lazy(() => import('./pcp/ChatCaseDetail'));
const PcpSettings = lazy(() => import('./pcp/PcpSettings'));
const PanelPage = lazy(() => import('./pcp/panel/PanelPage'));
const ClinicalAssessmentPage = lazy(() => import('./assessment/ClinicalAssessmentPage'));
const ChatbotPage = lazy(() => import('./chat/ChatbotPage'));

export function AppRoutes() {
  return (
    <Suspense fallback={<AppShellSkeleton />}>
      <Routes>
        <Route
          path="/"
          element={
            <RedirectIfSignedIn>
              <Landing />
            </RedirectIfSignedIn>
          }
        />
        <Route
          path="/auth"
          element={
            <RedirectIfSignedIn>
              <AuthPage />
            </RedirectIfSignedIn>
          }
        />
        <Route path="/unauthorized" element={<Unauthorized />} />
        <Route element={<MuiLayout />}>
          <Route path="/invite/:token" element={<InvitePage />} />
        </Route>
        <Route element={<RequireRole />}>
          <Route path="/dashboard" element={<Dashboard />} />
          <Route element={<MuiLayout />}>
            <Route path="/chatbot" element={<ChatbotPage />} />
          </Route>
        </Route>
        <Route element={<RequireRole allow={ADMIN_ROLES} />}>
          <Route element={<MuiLayout />}>
            <Route path="/admin/*" element={<AdminApp />} />
          </Route>
        </Route>
        <Route element={<RequireRole allow={CLINICAL_ROLES} />}>
          <Route element={<MuiLayout />}>
            <Route path="/clinical-form" element={<ClinicalAssessmentPage />} />
            <Route path="/pcp" element={<PcpLayout />}>
              <Route
                index
                element={
                  <Suspense fallback={<PageSkeleton />}>
                    <PcpDashboard />
                  </Suspense>
                }
              />
              <Route
                path="panel"
                element={
                  <Suspense fallback={<PageSkeleton />}>
                    <PanelPage />
                  </Suspense>
                }
              />
              {/* The spec's route for the Diagnostic Assistant, which is the chat at /chatbot (one entry, one name). */}
              <Route path="diagnostics" element={<Navigate to="/chatbot" replace />} />
              <Route
                path="cases"
                element={
                  <Suspense fallback={<PageSkeleton />}>
                    <CaseHistory />
                  </Suspense>
                }
              />
              <Route
                path="cases/:id"
                element={
                  <Suspense fallback={<PageSkeleton />}>
                    <CaseDetail />
                  </Suspense>
                }
              />
              <Route
                path="chats/:id"
                element={
                  <Suspense fallback={<PageSkeleton />}>
                    <ChatCaseDetail />
                  </Suspense>
                }
              />
              <Route
                path="settings"
                element={
                  <Suspense fallback={<PageSkeleton />}>
                    <PcpSettings />
                  </Suspense>
                }
              />
              <Route path="*" element={<NotFound />} />
            </Route>
          </Route>
        </Route>
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
