import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { LogoLink } from './Logo';

/** Header landmark for the full-width pages (dashboard, assessment, chat). */
export function TopBar({ title, actions }: { title?: string; actions?: ReactNode }) {
  return (
    <Box component="header" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper', position: 'sticky', top: 0, zIndex: 10 }}>
      <Container maxWidth="lg" sx={{ py: 1.25, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <LogoLink compact />
        {title && (
          <Typography variant="h1" sx={{ fontSize: '1.25rem', flex: 1 }}>
            {title}
          </Typography>
        )}
        {!title && <Box sx={{ flex: 1 }} />}
        <Box component="nav" aria-label="Page actions" sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          {actions}
        </Box>
      </Container>
    </Box>
  );
}
