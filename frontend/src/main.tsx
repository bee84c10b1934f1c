import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { auth } from './api';
import { AppRoutes } from './App';
import { AppProviders } from './AppProviders';

// Google sign-in ends at the site root with the session (or an error) in the URL fragment.
// Take it before the router reads the URL, and clear it from the address bar and history.
auth.consumeUrlFragment();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  </StrictMode>,
);
