import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * Placeholder for the admin console. Another engineer replaces it with react-admin
 * (<Admin basename="/admin" disableTelemetry>), reusing `fetchJson` and `auth` from ../api
 * and the theme from ../theme. It is lazy-loaded, so public pages never pay for it.
 */
export default function AdminApp() {
  return (
    <Box component="main" sx={{ p: 4 }}>
      <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
        Admin Console
      </Typography>
    </Box>
  );
}
