import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { auth } from '../api';
import { LinkButton } from '../components/LinkButton';
import { LogoLink } from '../components/Logo';
import { PRODUCT_NAME, TAGLINE } from '../brand';

// The first paint of / is kept light on purpose (bundle budget 120 kB gzip): plain elements
// styled by styles/public.css and inline icons, no MUI.

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

export default function Landing() {
  const navigate = useNavigate();
  // A failed Google sign-in comes back to the site root: show its error on the sign-in page.
  useEffect(() => {
    if (auth.hasOAuthError()) navigate('/auth', { replace: true });
  }, [navigate]);
  return (
    <div className="pub page page--column">
      <header className="bar">
        <div className="container bar__inner">
          <LogoLink />
          <LinkButton to="/auth" variant="text">
            Sign In
          </LinkButton>
        </div>
      </header>
      <main style={{ flex: 1 }}>
        <div className="container hero">
          <h1>{PRODUCT_NAME}: Diabetes Clinical Decision Support</h1>
          <p className="hero__tagline muted">{TAGLINE}</p>
          <div className="hero__actions">
            <LinkButton to="/auth" variant="contained" size="large">
              Get Started
            </LinkButton>
            <LinkButton to="/auth" variant="outlined" size="large">
              Sign In / Sign Up
            </LinkButton>
          </div>
        </div>
        <section aria-labelledby="features-heading" className="container features">
          <h2 id="features-heading">Built for the whole care team</h2>
          <div className="grid grid--3">
            {FEATURES.map(({ title, icon, text, items }) => (
              <article key={title} className="feature">
                <svg viewBox="0 0 24 24" aria-hidden="true">
                  <path d={icon} />
                </svg>
                <h3>{title}</h3>
                <p className="muted">{text}</p>
                <ul className="small">
                  {items.map((i) => (
                    <li key={i}>{i}</li>
                  ))}
                </ul>
              </article>
            ))}
          </div>
        </section>
      </main>
      <footer className="footer">
        <p className="small muted">
          © {new Date().getFullYear()} {PRODUCT_NAME}. Clinical decision support for diabetes care. All rights reserved.
        </p>
      </footer>
    </div>
  );
}
