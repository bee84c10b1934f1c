/**
 * A page's skeleton inside a console that is already on screen (its chunk is loading): a title,
 * a line and three rows (`decorative` inside a labelled skeleton). Plain CSS (index.html), so the entry chunk loads neither MUI nor emotion.
 */
export function PageSkeleton({ label = 'Loading', decorative = false }: { label?: string; decorative?: boolean }) {
  const a11y = decorative ? {} : { role: 'progressbar', 'aria-label': label };
  return (
    <div className="shell-skeleton__main" {...a11y}>
      <div className="shell-skeleton__block shell-skeleton__title" />
      <div className="shell-skeleton__block shell-skeleton__line" />
      <div className="shell-skeleton__block shell-skeleton__row" />
      <div className="shell-skeleton__block shell-skeleton__row" />
      <div className="shell-skeleton__block shell-skeleton__row" />
    </div>
  );
}
