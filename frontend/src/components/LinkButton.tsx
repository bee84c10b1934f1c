import type { ComponentProps } from 'react';
import { Link as RouterLink } from 'react-router-dom';

export type ButtonVariant = 'contained' | 'outlined' | 'text';

/** Class names of a plain button (styles/public.css), as MUI's Button variants looked. */
export function buttonClass(variant: ButtonVariant = 'text', { large = false, block = false, secondary = false } = {}) {
  return ['btn', `btn--${variant}`, large && 'btn--large', block && 'btn--block', secondary && 'btn--secondary'].filter(Boolean).join(' ');
}

/** A router link that looks like a button; public pages use it instead of MUI's Button. */
export function LinkButton({
  variant = 'contained',
  size = 'medium',
  ...props
}: ComponentProps<typeof RouterLink> & { variant?: ButtonVariant; size?: 'medium' | 'large' }) {
  return <RouterLink {...props} className={buttonClass(variant, { large: size === 'large' })} />;
}
