import { PageSkeleton } from './PageSkeleton';

/**
 * The app shell's skeleton while the session, the role or the first page loads: the same markup
 * and classes as the one index.html paints before the scripts arrive, so nothing moves when the
 * app mounts. The label names what is awaited for screen readers.
 */
export function AppShellSkeleton({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="shell-skeleton" role="progressbar" aria-label={label} data-testid="app-shell-skeleton" data-rendered-by="app">
      <div className="shell-skeleton__bar">
        <div className="shell-skeleton__block shell-skeleton__logo" />
        <div className="shell-skeleton__block shell-skeleton__brand" />
      </div>
      <PageSkeleton decorative />
    </div>
  );
}
