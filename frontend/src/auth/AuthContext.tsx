import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, auth, NetworkError, type AuthChangeEvent } from '../api';
import { getMe } from '../api/endpoints';
import type { PendingAccessRequestJson, ProfileJson, Role, UserJson } from '@cds/contracts';
import { normalizeRole } from '@cds/contracts';
import type { Session } from '../api';
import { toast, type ToastInput } from '../toast/toast';

export type AuthStatus = 'loading' | 'signedOut' | 'signedIn';

export interface AuthState {
  status: AuthStatus;
  session: Session | null;
  user: UserJson | null;
  /** null until known (see roleLoaded), and null for a user without a role. */
  role: Role | null;
  roleLoaded: boolean;
  profile: ProfileJson | null;
  profileLoading: boolean;
  /** The caller's access request awaiting review (from /api/me), so a reload still shows it as pending. */
  pendingAccessRequest: PendingAccessRequestJson | null;
  /**
   * The role could not be read because the server was unreachable (network failure, 502/503/504).
   * That says nothing about the user's role: the guards offer a retry instead of "Access Denied".
   */
  roleUnreachable: boolean;
}

interface AuthContextValue extends AuthState {
  /** Re-reads /api/me (role and profile) without blanking the screen. */
  refreshMe: () => Promise<void>;
}

const initialState: AuthState = {
  status: 'loading',
  session: null,
  user: null,
  role: null,
  roleLoaded: false,
  profile: null,
  profileLoading: false,
  pendingAccessRequest: null,
  roleUnreachable: false,
};

/**
 * Spec section 8: a network failure is a retryable fetch error. The toast says so and nothing about
 * roles. Kept here, not in messages.ts, so the entry chunk does not load the whole catalogue.
 */
export const SERVER_UNREACHABLE: ToastInput = {
  title: 'Connection problem',
  description: 'Unable to reach the server. Check your connection and try again.',
  variant: 'destructive',
};

/** Failures that say the server could not be reached, as opposed to an answer about this user. */
export function isUnreachable(e: unknown): boolean {
  return e instanceof NetworkError || (e instanceof ApiError && [502, 503, 504].includes(e.status));
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(initialState);
  const lookup = useRef(0);

  const loadMe = useCallback(async () => {
    const ticket = ++lookup.current;
    setState((s) => (s.roleUnreachable ? { ...s, roleUnreachable: false } : s));
    try {
      const me = await getMe();
      if (ticket !== lookup.current) return;
      setState((s) =>
        s.status !== 'signedIn'
          ? s
          : {
              ...s,
              user: me.user ?? s.user,
              role: normalizeRole(me.role),
              roleLoaded: true,
              profile: me.profile ?? null,
              profileLoading: false,
              pendingAccessRequest: me.pending_access_request ?? null,
              roleUnreachable: false,
            },
      );
    } catch (e) {
      if (ticket !== lookup.current) return;
      console.error('Could not load the user role and profile', e);
      if (isUnreachable(e)) {
        // Keep a role already known (a refresh that failed); without one, ask for a retry.
        toast(SERVER_UNREACHABLE);
        setState((s) => (s.status !== 'signedIn' || s.roleLoaded ? s : { ...s, roleUnreachable: true, profileLoading: false }));
        return;
      }
      // Spec section 6: a read error is logged and gives no role.
      setState((s) =>
        s.status !== 'signedIn' ? s : { ...s, role: s.roleLoaded ? s.role : null, roleLoaded: true, profileLoading: false },
      );
    }
  }, []);

  useEffect(() => {
    const onChange = (event: AuthChangeEvent, session: Session | null) => {
      if (!session) {
        lookup.current++;
        setState({ ...initialState, status: 'signedOut' });
        return;
      }
      setState((s) => {
        const sameUser = s.status === 'signedIn' && s.roleLoaded && !!s.user && s.user.id === session.user?.id;
        // A token refresh must never blank the screen: the clinician may be typing. Keep the
        // known role while it is looked up again; a new user starts from "unknown".
        if (sameUser && (event === 'TOKEN_REFRESHED' || event === 'USER_UPDATED')) {
          return { ...s, session, user: session.user ?? s.user };
        }
        return {
          status: 'signedIn',
          session,
          user: session.user,
          role: null,
          roleLoaded: false,
          profile: null,
          profileLoading: true,
          pendingAccessRequest: null,
          roleUnreachable: false,
        };
      });
      void loadMe();
    };
    const unsubscribe = auth.onAuthStateChange(onChange);
    auth.startAutoRefresh();
    return () => {
      unsubscribe();
      auth.stopAutoRefresh();
    };
  }, [loadMe]);

  const value = useMemo<AuthContextValue>(() => ({ ...state, refreshMe: loadMe }), [state, loadMe]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

/** Signs out (clearing every stored auth key even if the server call fails) and goes to /auth. */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    await auth.signOut();
    navigate('/auth', { replace: true });
  }, [navigate]);
}
