import Box from '@mui/material/Box';
import { keyframes } from '@emotion/react';

const spin = keyframes`to { transform: rotate(360deg); }`;

/**
 * A plain CSS spinner: it is on the first paint of every protected route, so it avoids
 * pulling MUI's CircularProgress into the entry chunk.
 */
export function Spinner({ label = 'Loading', size = 40 }: { label?: string; size?: number }) {
  return (
    <Box
      role="progressbar"
      aria-label={label}
      sx={{
        width: size,
        height: size,
        borderRadius: '50%',
        border: `${Math.max(3, Math.round(size / 10))}px solid`,
        borderColor: 'primary.light',
        borderTopColor: 'primary.main',
        animation: `${spin} 0.8s linear infinite`,
        '@media (prefers-reduced-motion: reduce)': { animationDuration: '2.4s' },
      }}
    />
  );
}

export function FullPageSpinner({ label = 'Loading', text }: { label?: string; text?: string }) {
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{ minHeight: '60vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2 }}
    >
      <Spinner label={label} />
      {text && <Box sx={{ color: 'text.secondary' }}>{text}</Box>}
    </Box>
  );
}
