import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router-dom';

export default function NotFound() {
  const location = useLocation();
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'background.default' }}>
      <Box sx={{ textAlign: 'center' }}>
        <Typography variant="h1" sx={{ mb: 2 }}>
          404
        </Typography>
        <Typography sx={{ fontSize: '1.25rem', color: 'text.secondary', mb: 2 }}>Oops! Page not found</Typography>
        <Link component={RouterLink} to="/" sx={{ fontWeight: 600 }}>
          Return to Home
        </Link>
      </Box>
    </Box>
  );
}
