import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { auth, type AuthChangeEvent } from '../api';
import { getMe } from '../api/endpoints';
import type { Profile, Role, Session, User } from '../api/types';
import { normalizeRole } from './roles';

export type AuthStatus = 'loading' | 'signedOut' | 'signedIn';

export interface AuthState {
  status: AuthStatus;
  session: Session | null;
  user: User | null;
  /** null until known (see roleLoaded), and null for a user without a role. */
  role: Role | null;
  roleLoaded: boolean;
  profile: Profile | null;
  profileLoading: boolean;
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
};

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(initialState);
  const lookup = useRef(0);

  const loadMe = useCallback(async () => {
    const ticket = ++lookup.current;
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
            },
      );
    } catch (e) {
      if (ticket !== lookup.current) return;
      // Spec section 6: a read error is logged and gives no role.
      console.error('Could not load the user role and profile', e);
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
