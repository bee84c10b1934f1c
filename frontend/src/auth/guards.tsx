import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { CLINICAL_ROLES, hasRole, type Role } from '@cds/contracts';
import { stashedTicket, stashTicket } from '../assessment/prefill';
import { AppShellSkeleton } from '../components/AppShellSkeleton';
import { useAuth } from './AuthContext';
import { homeForRole } from './roles';
import { ServerUnreachable } from './ServerUnreachable';

/**
 * Route guard (docs/product-spec.md section 4): the shell's skeleton while the auth state or the role loads, /auth when
 * signed out, /unauthorized when the role is not in the allowed list, and a retry (never
 * /unauthorized) when the role could not be read because the server was unreachable.
 */
export function RequireRole({ allow, children }: { allow?: readonly Role[]; children?: ReactNode }) {
  const { status, role, roleLoaded, roleUnreachable, refreshMe } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <AppShellSkeleton />;
  if (status === 'signedOut') {
    // A CDS card's link opened while signed out: its prefill ticket waits for the sign-in.
    stashTicket(location.search);
    return <Navigate to="/auth" replace />;
  }
  if (roleUnreachable) return <ServerUnreachable onRetry={() => void refreshMe()} />;
  if (!roleLoaded) return <AppShellSkeleton label="Checking your access" />;
  if (!hasRole(role, allow)) return <Navigate to="/unauthorized" replace />;
  return <>{children ?? <Outlet />}</>;
}

/** For / and /auth: a signed-in visitor goes straight to the home of their role. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { status, role, roleLoaded, roleUnreachable, refreshMe } = useAuth();
  if (status === 'loading') return <AppShellSkeleton />;
  if (status === 'signedIn') {
    if (roleUnreachable) return <ServerUnreachable onRetry={() => void refreshMe()} />;
    if (!roleLoaded) return <AppShellSkeleton label="Signing you in" />;
    // Signed in from a CDS card's link: back to the form it opens.
    const home = stashedTicket() && hasRole(role, CLINICAL_ROLES) ? '/clinical-form' : homeForRole(role);
    return <Navigate to={home} replace />;
  }
  return <>{children}</>;
}
