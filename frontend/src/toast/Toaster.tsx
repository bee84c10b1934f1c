import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { dismissToast, subscribeToasts, type ToastItem } from './toast';

const severity = { destructive: 'error', success: 'success', default: 'info' } as const;

export function Toaster() {
  const [items, setItems] = useState<ToastItem[]>([]);
  useEffect(() => subscribeToasts(setItems), []);
  return (
    <Box
      aria-label="Notifications"
      component="section"
      sx={{
        position: 'fixed',
        zIndex: (t) => t.zIndex.snackbar,
        // Top right, below the app bar: at the bottom a toast covered a dialog's Save / Cancel buttons.
        top: 72,
        right: 16,
        left: { xs: 16, sm: 'auto' },
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        width: { sm: 380 },
        pointerEvents: 'none',
      }}
    >
      {items.map((t) => (
        <Alert
          key={t.id}
          data-testid="toast"
          data-variant={t.variant}
          role={t.variant === 'destructive' ? 'alert' : 'status'}
          severity={severity[t.variant]}
          variant={t.variant === 'default' ? 'outlined' : 'filled'}
          onClose={() => dismissToast(t.id)}
          closeText="Close notification"
          sx={{ pointerEvents: 'auto', boxShadow: 3, bgcolor: t.variant === 'default' ? 'background.paper' : undefined }}
        >
          <AlertTitle sx={{ mb: t.description ? 0.5 : 0 }}>{t.title}</AlertTitle>
          {t.description}
        </Alert>
      ))}
    </Box>
  );
}
