/**
 * A small toast store. `toast()` works from anywhere (React or not); <Toaster/> renders it.
 * Variant defaults to 'destructive' as in the spec's error catalogue.
 */
/** Spread on a page's primary action: the toast stack never sits over it (toast/Toaster.tsx). */
export const PRIMARY_ACTION = { 'data-primary-action': '' } as const;

export type ToastVariant = 'destructive' | 'success' | 'default';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before auto-dismiss; errors stay longer so they can be read. */
  duration?: number;
}

export interface ToastItem extends Required<Omit<ToastInput, 'description'>> {
  id: number;
  description?: string;
}

type Listener = (toasts: ToastItem[]) => void;

const MAX_TOASTS = 4;
let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function publish() {
  for (const l of listeners) l(toasts);
}

export function dismissToast(id: number) {
  const t = timers.get(id);
  if (t) clearTimeout(t);
  timers.delete(id);
  toasts = toasts.filter((x) => x.id !== id);
  publish();
}

export function toast(input: ToastInput): number {
  const variant = input.variant ?? 'destructive';
  const item: ToastItem = {
    id: nextId++,
    title: input.title,
    description: input.description,
    variant,
    duration: input.duration ?? (variant === 'destructive' ? 8000 : 5000),
  };
  toasts = [...toasts, item].slice(-MAX_TOASTS);
  timers.set(
    item.id,
    setTimeout(() => dismissToast(item.id), item.duration),
  );
  publish();
  return item.id;
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  listener(toasts);
  return () => listeners.delete(listener);
}

export function clearToasts() {
  for (const t of timers.values()) clearTimeout(t);
  timers.clear();
  toasts = [];
  publish();
}
