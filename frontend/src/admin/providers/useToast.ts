import { useCallback } from 'react';
import { useNotify } from 'react-admin';
import type { ToastInput } from '../../toast/toast';

/** Shows a spec toast through react-admin's notify (see ToastBridge). */
export function useToast(): (input: ToastInput) => void {
  const notify = useNotify();
  return useCallback(
    (input: ToastInput) => {
      const variant = input.variant ?? 'destructive';
      notify(input.description ?? input.title, {
        type: variant === 'destructive' ? 'error' : variant === 'success' ? 'success' : 'info',
        toast: { ...input, variant },
      });
    },
    [notify],
  );
}
