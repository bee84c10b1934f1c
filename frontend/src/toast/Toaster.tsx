import { useEffect, useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from '../components/Icon';
import { dismissToast, subscribeToasts, type ToastItem } from './toast';

const look = {
  destructive: { className: 'alert--error', icon: 'error' },
  success: { className: 'alert--success', icon: 'success' },
  default: { className: 'alert--info', icon: 'info' },
} as const;

/** True while a modal dialog is open (MUI dialogs render in a portal directly under <body>). */
function useDialogOpen(): boolean {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const check = () => setOpen(!!document.querySelector('body > .MuiDialog-root'));
    check();
    const observer = new MutationObserver(check);
    observer.observe(document.body, { childList: true });
    return () => observer.disconnect();
  }, []);
  return open;
}

/**
 * The toasts' own container, the last child of <body>. A modal dialog hides the rest of the page
 * from assistive technology (MUI sets aria-hidden on <body>'s other children, #root included);
 * toasts raised while it is open must still be announced, so this container refuses aria-hidden.
 */
function useToastRoot(): HTMLElement | null {
  const [root, setRoot] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const el = document.createElement('div');
    el.setAttribute('data-toast-root', '');
    document.body.appendChild(el);
    const observer = new MutationObserver(() => {
      if (el.hasAttribute('aria-hidden')) el.removeAttribute('aria-hidden');
    });
    observer.observe(el, { attributes: true, attributeFilter: ['aria-hidden'] });
    setRoot(el);
    return () => {
      observer.disconnect();
      el.remove();
    };
  }, []);
  return root;
}

/**
 * On phones the stack spans the width at the bottom. The page gets that much room below its
 * content (--toast-space, styles/public.css), so whatever a toast is about can still be scrolled
 * clear of it.
 */
function useReserveSpace(stack: HTMLElement | null, items: ToastItem[]) {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const reserve = () => {
      const height = stack && items.length > 0 ? stack.offsetHeight : 0;
      if (height) root.style.setProperty('--toast-space', `${height + 16}px`);
      else root.style.removeProperty('--toast-space');
    };
    reserve();
    // A toast's height can change after it renders (web fonts, a long description wrapping).
    if (!stack || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(reserve);
    observer.observe(stack);
    return () => observer.disconnect();
  }, [stack, items]);
  useEffect(
    () => () => {
      document.documentElement.style.removeProperty('--toast-space');
    },
    [],
  );
}

const overlaps = (a: DOMRect, top: number, bottom: number) => a.bottom > top && a.top < bottom && a.width > 0;

/**
 * Where the stack goes when, in its usual place at the bottom, it would cover an element marked
 * PRIMARY_ACTION that is on screen (on a phone after sign-up, "Request PCP Access" can sit low on
 * the first screen): its top edge in px, just below the page's sticky header (whose Sign Out it
 * must not cover either), or null to stay at the bottom. Re-checked as the page scrolls or resizes.
 */
function useAvoidPrimaryAction(stack: HTMLElement | null, items: ToastItem[]): number | null {
  const [top, setTop] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (!stack || !items.length) {
      setTop(null);
      return;
    }
    const check = () => {
      const actions = [...document.querySelectorAll('[data-primary-action]')];
      // Where the stack is when at the bottom (its height is the same at the top).
      const height = stack.offsetHeight;
      const bottom = window.innerHeight - 16;
      if (!actions.some((el) => overlaps(el.getBoundingClientRect(), bottom - height, bottom))) return setTop(null);
      const header = document.querySelector('header');
      setTop(Math.max(header ? header.getBoundingClientRect().bottom : 0, 0) + 8);
    };
    check();
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(check);
    observer?.observe(stack);
    // A toast raised on one page often outlives it (sign-up's toast, then the dashboard renders its
    // action): re-check once per frame whenever the page's content changes.
    let frame = 0;
    const later = () => {
      if (!frame) frame = requestAnimationFrame(() => ((frame = 0), check()));
    };
    const content = new MutationObserver(later);
    content.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-primary-action'] });
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
      observer?.disconnect();
      content.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [stack, items]);
  return top;
}

/**
 * The toast stack, plain React and CSS (styles/public.css) so every page can show toasts
 * without loading MUI. Where it covers nothing (test/browser/toast-placement): bottom right,
 * 360 px wide; top right covered the pages' header actions (Create Parameter, Invite User) and
 * the dashboard's System Access card. A dialog keeps its buttons at its bottom right, so while
 * one is open the stack moves to the bottom left (over the backdrop and the dialog's empty
 * action row), and on phones, where a dialog spans the width, to the top. It also moves to the
 * top, below the sticky header, when it would cover a page's primary action (PRIMARY_ACTION).
 */
export function Toaster() {
  const [items, setItems] = useState<ToastItem[]>([]);
  useEffect(() => subscribeToasts(setItems), []);
  const dialogOpen = useDialogOpen();
  const root = useToastRoot();
  const [stack, setStack] = useState<HTMLElement | null>(null);
  const avoidTop = useAvoidPrimaryAction(stack, items);
  const atTop = !dialogOpen && avoidTop !== null;
  useReserveSpace(stack, atTop ? [] : items);
  if (!root) return null;
  return createPortal(
    <section
      ref={setStack}
      aria-label="Notifications"
      className={dialogOpen ? 'toasts toasts--dialog' : atTop ? 'toasts toasts--top' : 'toasts'}
      style={atTop ? { top: avoidTop } : undefined}
    >
      {items.map((t) => (
        <div
          key={t.id}
          data-testid="toast"
          data-variant={t.variant}
          role={t.variant === 'destructive' ? 'alert' : 'status'}
          className={`alert toast ${look[t.variant].className}`}
        >
          <Icon name={look[t.variant].icon} size={22} />
          <div className="alert__body">
            <span className="alert__title">{t.title}</span>
            {t.description}
          </div>
          <button
            type="button"
            className="toast__close"
            aria-label="Close notification"
            title="Close notification"
            onClick={() => dismissToast(t.id)}
          >
            <Icon name="close" />
          </button>
        </div>
      ))}
    </section>,
    root,
  );
}
