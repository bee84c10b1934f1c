import { useEffect } from 'react';
import { useNotificationContext, useTranslate, type NotificationType } from 'react-admin';
import { toast, type ToastInput, type ToastVariant } from '../../toast/toast';

const VARIANT: Record<NotificationType, ToastVariant> = {
  error: 'destructive',
  success: 'success',
  info: 'default',
  warning: 'default',
};

/**
 * react-admin's `notification` slot: every useNotify() call lands in the app's one toast
 * stack (the same look, roles and timings as the rest of the product). A spec toast with a
 * title and a description travels as `notify(description, { type, toast })`.
 */
export function ToastBridge() {
  const { notifications, setNotifications } = useNotificationContext();
  const translate = useTranslate();
  useEffect(() => {
    if (!notifications.length) return;
    // Take exactly the ones seen here; any added meanwhile stay for the next run.
    setNotifications((current) => current.slice(notifications.length));
    for (const n of notifications) {
      const options = n.notificationOptions ?? {};
      const spec = options.toast as ToastInput | undefined;
      if (spec) {
        toast(spec);
        continue;
      }
      const message = typeof n.message === 'string' ? translate(n.message, { _: n.message, ...(options.messageArgs ?? {}) }) : '';
      toast({ title: message || 'Error', variant: VARIANT[n.type] ?? 'default' });
    }
  }, [notifications, setNotifications, translate]);
  return null;
}
