import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { CLINICAL_ROLES, hasRole, type Role } from '@cds/contracts';
import { stashedTicket, stashTicket } from '../assessment/prefill';
import { FullPageSpinner } from '../components/FullPageSpinner';
import { useAuth } from './AuthContext';
import { homeForRole } from './roles';
import { ServerUnreachable } from './ServerUnreachable';

/**
 * Route guard (docs/product-spec.md section 4): spinner while the auth state or the role loads, /auth when
 * signed out, /unauthorized when the role is not in the allowed list, and a retry (never
 * /unauthorized) when the role could not be read because the server was unreachable.
 */
export function RequireRole({ allow, children }: { allow?: readonly Role[]; children?: ReactNode }) {
  const { status, role, roleLoaded, roleUnreachable, refreshMe } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedOut') {
    // A CDS card's link opened while signed out: its prefill ticket waits for the sign-in.
    stashTicket(location.search);
    return <Navigate to="/auth" replace />;
  }
  if (roleUnreachable) return <ServerUnreachable onRetry={() => void refreshMe()} />;
  if (!roleLoaded) return <FullPageSpinner label="Checking your access" />;
  if (!hasRole(role, allow)) return <Navigate to="/unauthorized" replace />;
  return <>{children ?? <Outlet />}</>;
}

/** For / and /auth: a signed-in visitor goes straight to the home of their role. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { status, role, roleLoaded, roleUnreachable, refreshMe } = useAuth();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedIn') {
    if (roleUnreachable) return <ServerUnreachable onRetry={() => void refreshMe()} />;
    if (!roleLoaded) return <FullPageSpinner label="Signing you in" />;
    // Signed in from a CDS card's link: back to the form it opens.
    const home = stashedTicket() && hasRole(role, CLINICAL_ROLES) ? '/clinical-form' : homeForRole(role);
    return <Navigate to={home} replace />;
  }
  return <>{children}</>;
}
