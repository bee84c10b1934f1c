import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../api';

/**
 * A list (or card) that is loading: skeleton rows where its rows will be, so the page keeps its
 * shape on a slow network instead of a bare spinner, and the text saying what is loading.
 */
export function LoadingBlock({ label = 'Loading', text, rows = 3 }: { label?: string; text?: string; rows?: number }) {
  return (
    <Box role="status" aria-live="polite" sx={{ p: 2 }}>
      <Stack spacing={1} role="progressbar" aria-label={label}>
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} variant="rounded" height={56} />
        ))}
      </Stack>
      {text && (
        <Typography color="text.secondary" sx={{ mt: 1.5, textAlign: 'center' }}>
          {text}
        </Typography>
      )}
    </Box>
  );
}

/** A list or card that could not load: what failed, the server's reason, and Retry when the caller can load again. */
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
