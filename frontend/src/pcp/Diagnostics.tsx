import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import AssignmentIcon from '@mui/icons-material/Assignment';
import ChatIcon from '@mui/icons-material/Chat';
import { Link as RouterLink } from 'react-router-dom';

export default function Diagnostics() {
  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto' }}>
      <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 1 }}>
        Diagnostic Assistant
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Start a new assessment. Questions come one at a time; published rules are evaluated after every answer.
      </Typography>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <Card component="section" aria-labelledby="diag-clinical">
          <CardContent>
            <AssignmentIcon color="primary" sx={{ fontSize: 36 }} aria-hidden="true" />
            <Typography id="diag-clinical" variant="h2" sx={{ fontSize: '1.2rem', my: 1 }}>
              Clinical Assessment
            </Typography>
            <Typography color="text.secondary">
              A structured, question-by-question assessment. The result shows the matched rule, its version and the answers it was based on,
              and is saved to your case history.
            </Typography>
          </CardContent>
          <CardActions sx={{ px: 2, pb: 2 }}>
            <Button component={RouterLink} to="/clinical-form" variant="contained">
              Start Assessment
            </Button>
          </CardActions>
        </Card>
        <Card component="section" aria-labelledby="diag-chat">
          <CardContent>
            <ChatIcon color="primary" sx={{ fontSize: 36 }} aria-hidden="true" />
            <Typography id="diag-chat" variant="h2" sx={{ fontSize: '1.2rem', my: 1 }}>
              AI Chat Assistant
            </Typography>
            <Typography color="text.secondary">
              A conversational walk through the same rules. When several recommendations apply you choose which to follow.
            </Typography>
          </CardContent>
          <CardActions sx={{ px: 2, pb: 2 }}>
            <Button component={RouterLink} to="/chatbot" variant="outlined">
              Open Chat Assistant
            </Button>
          </CardActions>
        </Card>
      </Box>
    </Box>
  );
}
