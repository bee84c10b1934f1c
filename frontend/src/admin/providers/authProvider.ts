import type { AuthProvider } from 'react-admin';
import type { AuthClient } from '../../api/authClient';
import { ApiError } from '../../api/errors';
import type { Role } from '@cds/contracts';
import { displayName } from '../../components/format';
import { canAccess } from '@cds/contracts';

/**
 * react-admin's authProvider on top of the shared auth client: the session, its refresh and
 * sign-out all live there. The role comes from the app's auth state (it is known before the
 * console loads: the /admin route guard waits for it).
 */
export function createAuthProvider(auth: AuthClient, getRole: () => Role | null): AuthProvider {
  return {
    // Signing in happens on /auth, outside the console.
    login: async () => {
      throw new Error('Sign in on /auth');
    },
    logout: async () => {
      if (auth.getSession()) await auth.signOut();
      return '/auth';
    },
    checkAuth: async () => {
      await auth.initialize();
      if (!auth.getSession()) throw new Error('Not signed in');
    },
    // 401 after the client's own refresh-and-retry means the session is gone. A 403 or a 409 is
    // an answer about one action, shown where it happened; it must never sign the admin out.
    checkError: async (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) throw error;
    },
    getIdentity: async () => {
      const user = auth.getSession()?.user;
      if (!user) throw new Error('Not signed in');
      return { id: user.id, fullName: displayName(user.user_metadata, user.email), email: user.email };
    },
    getPermissions: async () => getRole(),
    canAccess: async (params) => canAccess(getRole(), params),
  };
}
