import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from './theme';

/** MUI's theme for the parts built with MUI (consoles, the profile dialog). */
export function MuiTheme({ children }: { children: ReactNode }) {
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}

/** Layout route for the MUI pages (App.tsx loads it lazily with them). */
export default function MuiLayout() {
  return (
    <MuiTheme>
      <Outlet />
    </MuiTheme>
  );
}
