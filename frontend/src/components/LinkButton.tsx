import { styled } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router-dom';

/**
 * A link that looks like a contained/outlined button. The landing page uses it instead of
 * MUI's Button so the first paint of / does not load ButtonBase and its ripple machinery.
 */
export const LinkButton = styled(RouterLink, { shouldForwardProp: (p) => p !== 'variant' && p !== 'size' })<{
  variant?: 'contained' | 'outlined' | 'text';
  size?: 'medium' | 'large';
}>(({ theme, variant = 'contained', size = 'medium' }) => ({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 8,
  minHeight: size === 'large' ? 48 : 40,
  padding: size === 'large' ? '10px 24px' : '6px 16px',
  borderRadius: theme.shape.borderRadius,
  fontWeight: 600,
  fontSize: size === 'large' ? '1rem' : '0.9rem',
  textDecoration: 'none',
  border: '1px solid transparent',
  transition: 'background-color 150ms ease, border-color 150ms ease',
  ...(variant === 'contained' && {
    backgroundColor: theme.palette.primary.main,
    color: theme.palette.primary.contrastText,
    '&:hover': { backgroundColor: theme.palette.primary.dark },
  }),
  ...(variant === 'outlined' && {
    color: theme.palette.primary.main,
    borderColor: theme.palette.primary.main,
    '&:hover': { backgroundColor: theme.palette.primary.light },
  }),
  ...(variant === 'text' && {
    color: theme.palette.primary.main,
    '&:hover': { backgroundColor: theme.palette.primary.light },
  }),
  '&:focus-visible': { outline: '3px solid #84adff', outlineOffset: 2 },
}));
