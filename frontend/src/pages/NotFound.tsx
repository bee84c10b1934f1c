import { useEffect } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';

export default function NotFound() {
  const location = useLocation();
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);
  return (
    <main className="pub page page--center notfound">
      <div className="center">
        <h1>404</h1>
        <p className="muted">Oops! Page not found</p>
        <RouterLink to="/" className="link">
          Return to Home
        </RouterLink>
      </div>
    </main>
  );
}
