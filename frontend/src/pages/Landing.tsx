import { useEffect } from 'react';
import Box from '@mui/material/Box';
import { useNavigate } from 'react-router-dom';
import { auth } from '../api';
import { LinkButton } from '../components/LinkButton';
import { LogoLink } from '../components/Logo';
import { PRODUCT_NAME, TAGLINE } from '../brand';

// The first paint of / is kept light on purpose (bundle budget 120 kB gzip): plain Box
// elements and inline icons instead of Card/Container/Stack/Typography and icon modules.

const ICONS = {
  admin:
    'M17 11c.34 0 .67.04 1 .09V6.27L10.5 3 3 6.27v4.91c0 4.54 3.2 8.79 7.5 9.82.55-.13 1.08-.32 1.6-.55-.69-.98-1.1-2.17-1.1-3.45 0-3.31 2.69-6 6-6m0 2c-2.21 0-4 1.79-4 4s1.79 4 4 4 4-1.79 4-4-1.79-4-4-4m0 1.38c.62 0 1.12.51 1.12 1.12s-.51 1.12-1.12 1.12-1.12-.51-1.12-1.12.5-1.12 1.12-1.12m0 5.37c-.93 0-1.74-.46-2.24-1.17.05-.72 1.51-1.08 2.24-1.08s2.19.36 2.24 1.08c-.5.71-1.31 1.17-2.24 1.17',
  pcp: 'M19 3H5c-1.1 0-1.99.9-1.99 2L3 19c0 1.1.9 2 2 2h14c1.1 0 2-.9 2-2V5c0-1.1-.9-2-2-2m-1 11h-4v4h-4v-4H6v-4h4V6h4v4h4z',
  ai: 'm19 9 1.25-2.75L23 5l-2.75-1.25L19 1l-1.25 2.75L15 5l2.75 1.25zm-7.5.5L9 4 6.5 9.5 1 12l5.5 2.5L9 20l2.5-5.5L17 12zM19 15l-1.25 2.75L15 19l2.75 1.25L19 23l1.25-2.75L23 19l-2.75-1.25z',
} as const;

const FEATURES = [
  {
    title: 'For Administrators',
    icon: ICONS.admin,
    text: 'Design and govern the diagnostic rules your clinicians rely on.',
    items: [
      'Visual rule designer',
      'Template library',
      'Sandbox testing',
      'User management',
      'Parameter management',
      'Approval of access requests',
    ],
  },
  {
    title: 'For Primary Care Physicians',
    icon: ICONS.pcp,
    text: 'Get guidance at the point of care, one question at a time.',
    items: [
      'Step-by-step guidance',
      'Evidence-based recommendations',
      'Conflict resolution between recommendations',
      'Privacy-first design',
    ],
  },
  {
    title: 'AI-Powered Features',
    icon: ICONS.ai,
    text: 'Assistance that explains itself, and never replaces clinical judgement.',
    items: ['Rule explanations', 'Next-step suggestions', 'Alternative recommendations', 'Context-aware insights'],
  },
];

const container = { width: '100%', maxWidth: 1200, mx: 'auto', px: { xs: 2, sm: 3 } } as const;

export default function Landing() {
  const navigate = useNavigate();
  // A failed Google sign-in comes back to the site root: show its error on the sign-in page.
  useEffect(() => {
    if (auth.hasOAuthError()) navigate('/auth', { replace: true });
  }, [navigate]);
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Box sx={{ ...container, py: 1.5, display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <LogoLink />
          <LinkButton to="/auth" variant="text">
            Sign In
          </LinkButton>
        </Box>
      </Box>
      <Box component="main" sx={{ flex: 1 }}>
        <Box sx={{ ...container, py: { xs: 6, md: 10 }, textAlign: 'center' }}>
          <Box component="h1" sx={{ typography: 'h1', m: 0, mb: 2, fontSize: { xs: '2rem', md: '3rem' } }}>
            {PRODUCT_NAME}: Diabetes Clinical Decision Support
          </Box>
          <Box component="p" sx={{ typography: 'body1', m: 0, mx: 'auto', mb: 4, maxWidth: 720, fontSize: { xs: '1.1rem', md: '1.35rem' }, color: 'text.secondary' }}>
            {TAGLINE}
          </Box>
          <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 2, justifyContent: 'center' }}>
            <LinkButton to="/auth" variant="contained" size="large">
              Get Started
            </LinkButton>
            <LinkButton to="/auth" variant="outlined" size="large">
              Sign In / Sign Up
            </LinkButton>
          </Box>
        </Box>
        <Box component="section" aria-labelledby="features-heading" sx={{ ...container, pb: 8 }}>
          <Box component="h2" id="features-heading" sx={{ typography: 'h2', m: 0, textAlign: 'center', mb: 4 }}>
            Built for the whole care team
          </Box>
          <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
            {FEATURES.map(({ title, icon, text, items }) => (
              <Box component="article" key={title} sx={{ bgcolor: 'background.paper', border: 1, borderColor: 'divider', borderRadius: 2.5, p: 3 }}>
                <Box component="svg" viewBox="0 0 24 24" aria-hidden="true" sx={{ width: 36, height: 36, fill: (t) => t.palette.primary.main, mb: 1 }}>
                  <path d={icon} />
                </Box>
                <Box component="h3" sx={{ typography: 'h3', m: 0, mb: 1 }}>
                  {title}
                </Box>
                <Box component="p" sx={{ typography: 'body1', m: 0, mb: 1.5, color: 'text.secondary' }}>
                  {text}
                </Box>
                <Box component="ul" sx={{ m: 0, pl: 2.5, typography: 'body2' }}>
                  {items.map((i) => (
                    <li key={i}>{i}</li>
                  ))}
                </Box>
              </Box>
            ))}
          </Box>
        </Box>
      </Box>
      <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 3, bgcolor: 'background.paper' }}>
        <Box component="p" sx={{ typography: 'body2', m: 0, color: 'text.secondary', textAlign: 'center' }}>
          © 2025 {PRODUCT_NAME}. Clinical decision support for diabetes care. All rights reserved.
        </Box>
      </Box>
    </Box>
  );
}
