import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LockIcon from '@mui/icons-material/Lock';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { auth } from '../api';
import { useAuth } from '../auth/AuthContext';

export default function Unauthorized() {
  const { status } = useAuth();
  const navigate = useNavigate();
  // A signed-in visitor would bounce straight back from /auth, so sign out first.
  const switchAccount = async () => {
    if (status === 'signedIn') await auth.signOut();
    navigate('/auth');
  };
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2, bgcolor: 'background.default' }}>
      <Card sx={{ maxWidth: 480, width: '100%' }}>
        <CardContent sx={{ textAlign: 'center', p: 4 }}>
          <LockIcon color="error" sx={{ fontSize: 48, mb: 1 }} aria-hidden="true" />
          <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 1 }}>
            Access Denied
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            You don't have the required role permissions to access this page. Contact an administrator if you believe
            you should have access.
          </Typography>
          <Stack spacing={1.5}>
            <Button component={RouterLink} to="/dashboard" variant="contained">
              Go to Dashboard
            </Button>
            <Button variant="outlined" onClick={switchAccount}>
              Sign In with Different Account
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
