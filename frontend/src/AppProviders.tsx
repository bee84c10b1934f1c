import type { ReactNode } from 'react';
import { AuthProvider } from './auth/AuthContext';
import { Toaster } from './toast/Toaster';
import './styles/public.css';

/**
 * Auth state, toasts and the global styles. Must sit inside a router (sign-out navigates).
 * No MUI here: the public pages are plain React and CSS (120 kB gzip budget per page); the
 * consoles get MUI's theme from MuiProviders, loaded with them.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      {children}
      <Toaster />
    </AuthProvider>
  );
}
