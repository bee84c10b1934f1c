import type { ReactNode } from 'react';

/**
 * A plain CSS spinner (styles/public.css): it is on the first paint of every protected route,
 * so it loads neither MUI nor emotion.
 */
export function Spinner({ label = 'Loading', size = 40 }: { label?: string; size?: number }) {
  const border = Math.max(3, Math.round(size / 10));
  return <div role="progressbar" aria-label={label} className="spinner" style={{ width: size, height: size, borderWidth: border }} />;
}

export function FullPageSpinner({ label = 'Loading', text, spinner = true }: { label?: string; text?: ReactNode; spinner?: boolean }) {
  return (
    <div role="status" aria-live="polite" className="fullpage">
      {spinner && <Spinner label={label} />}
      {text && <div className="fullpage__text">{text}</div>}
    </div>
  );
}
