import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import type { Role } from '../api/types';
import { FullPageSpinner } from '../components/FullPageSpinner';
import { useAuth } from './AuthContext';
import { canAccess, homeForRole } from './roles';

/**
 * Route guard (spec section 4): spinner while the auth state or the role loads, /auth when
 * signed out, /unauthorized when the role is not in the allowed list.
 */
export function RequireRole({ allow, children }: { allow?: readonly Role[]; children?: ReactNode }) {
  const { status, role, roleLoaded } = useAuth();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedOut') return <Navigate to="/auth" replace />;
  if (!roleLoaded) return <FullPageSpinner label="Checking your access" />;
  if (!canAccess(role, allow)) return <Navigate to="/unauthorized" replace />;
  return <>{children ?? <Outlet />}</>;
}

/** For / and /auth: a signed-in visitor goes straight to the home of their role. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { status, role, roleLoaded } = useAuth();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedIn') {
    if (!roleLoaded) return <FullPageSpinner label="Signing you in" />;
    return <Navigate to={homeForRole(role)} replace />;
  }
  return <>{children}</>;
}
