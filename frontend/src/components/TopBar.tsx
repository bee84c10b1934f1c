import type { ReactNode } from 'react';
import { LogoLink } from './Logo';

/** Header landmark for the full-width pages (dashboard, assessment, chat); plain CSS (styles/public.css). */
export function TopBar({ title, actions }: { title?: string; actions?: ReactNode }) {
  return (
    <header className="bar bar--sticky">
      <div className="container bar__inner bar__inner--top">
        <LogoLink compact />
        {title ? <h1 className="bar__title">{title}</h1> : <div className="bar__title" />}
        <nav aria-label="Page actions" className="bar__actions">
          {actions}
        </nav>
      </div>
    </header>
  );
}
