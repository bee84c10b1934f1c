import { createTheme } from '@mui/material/styles';

/**
 * The one theme for the whole product (public pages, PCP console, clinical pages and the
 * react-admin console). Colours are chosen for WCAG AA contrast: every `main` colour carries
 * white text at 4.5:1 or better.
 */

// Severity colours shared by results, badges and the debug log (high/critical red,
// medium yellow, low green). Yellow carries dark text: white on yellow is unreadable.
export const severityColors = {
  critical: { bg: '#b42318', fg: '#ffffff', border: '#b42318' },
  high: { bg: '#b42318', fg: '#ffffff', border: '#b42318' },
  medium: { bg: '#fde047', fg: '#422006', border: '#ca8a04' },
  low: { bg: '#067647', fg: '#ffffff', border: '#067647' },
} as const;

export const sidebarWidth = { expanded: '16rem', collapsed: '4rem' } as const;

const status = {
  error: { main: '#b42318', dark: '#912018', light: '#fef3f2', contrastText: '#ffffff' },
  warning: { main: '#b54708', dark: '#93370d', light: '#fffaeb', contrastText: '#ffffff' },
  success: { main: '#067647', dark: '#05603a', light: '#ecfdf3', contrastText: '#ffffff' },
  info: { main: '#0b5cad', dark: '#08457f', light: '#e8f1fb', contrastText: '#ffffff' },
} as const;

/**
 * A standard (tinted) alert: MUI derives its text from the `light` tint darkened and its background
 * from that tint lightened further, which with these pale tints gave grey text on near-white, an
 * error that did not read as one. Here the text is the `dark` shade on the `light` tint (7.2:1 to
 * 8.5:1), with a border in the `main` colour's tint so the box stands out on a white card.
 */
function standardAlert(c: (typeof status)[keyof typeof status]) {
  return { color: c.dark, backgroundColor: c.light, border: `1px solid ${c.main}40`, '& .MuiAlert-icon': { color: c.main } };
}

export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#0b5cad', dark: '#08457f', light: '#e8f1fb', contrastText: '#ffffff' },
    secondary: { main: '#475569', dark: '#334155', light: '#eef2f6', contrastText: '#ffffff' },
    ...status,
    background: { default: '#f5f7fa', paper: '#ffffff' },
    text: { primary: '#101828', secondary: '#475467' },
    divider: '#e4e7ec',
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    h1: { fontSize: '2.5rem', fontWeight: 700, lineHeight: 1.2 },
    h2: { fontSize: '1.75rem', fontWeight: 700, lineHeight: 1.25 },
    h3: { fontSize: '1.375rem', fontWeight: 600, lineHeight: 1.3 },
    h4: { fontSize: '1.125rem', fontWeight: 600 },
    h5: { fontSize: '1rem', fontWeight: 600 },
    h6: { fontSize: '0.95rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiPaper: { styleOverrides: { outlined: { borderColor: '#e4e7ec' } } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiButtonBase: {
      styleOverrides: {
        root: { '&.Mui-focusVisible': { outline: '3px solid #84adff', outlineOffset: 2 } },
      },
    },
    MuiLink: { defaultProps: { underline: 'hover' } },
    MuiAlert: {
      styleOverrides: {
        standardError: standardAlert(status.error),
        standardWarning: standardAlert(status.warning),
        standardSuccess: standardAlert(status.success),
        standardInfo: standardAlert(status.info),
      },
    },
  },
});

export default theme;
