import { Link as RouterLink } from 'react-router-dom';
import { PRODUCT_NAME } from '../brand';

export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" style={{ flexShrink: 0 }}>
      <rect width="32" height="32" rx="7" fill="#0b5cad" />
      <path d="M16 6c-4 5.5-7 9.3-7 13a7 7 0 0 0 14 0c0-3.7-3-7.5-7-13z" fill="#fff" />
      <path d="M12.5 19.5h7M16 16v7" stroke="#0b5cad" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

/** The logo, linking home. With `compact` only the mark shows (the link keeps its name). */
export function LogoLink({ compact = false, to = '/' }: { compact?: boolean; to?: string }) {
  return (
    <RouterLink to={to} aria-label={`${PRODUCT_NAME} home`} className="logo">
      <LogoMark />
      {!compact && <span className="logo__name">{PRODUCT_NAME}</span>}
    </RouterLink>
  );
}
