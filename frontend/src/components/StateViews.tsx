import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../api';
import { Spinner } from './FullPageSpinner';

export function LoadingBlock({ label = 'Loading', text }: { label?: string; text?: string }) {
  return (
    <Box role="status" aria-live="polite" sx={{ py: 6, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}>
      <Spinner label={label} />
      {text && <Typography color="text.secondary">{text}</Typography>}
    </Box>
  );
}

export function ErrorBlock({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        onRetry && (
          <Button color="inherit" size="small" onClick={onRetry}>
            Retry
          </Button>
        )
      }
    >
      <strong>{title}</strong> {errorMessage(error, 'Please try again.')}
    </Alert>
  );
}

export function EmptyBlock({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box sx={{ py: 5, textAlign: 'center' }}>
      <Typography variant="h4" component="p" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children && <Typography color="text.secondary">{children}</Typography>}
    </Box>
  );
}
