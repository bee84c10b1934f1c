import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { RULES } from '../../messages';

/**
 * No rule templates: says how one comes to exist (a rule set marked as a template) and takes the
 * admin there, in the Templates tab and in the Import Template dialog alike.
 */
export function NoTemplates({ onShowRuleSets }: { onShowRuleSets: () => void }) {
  return (
    <Box sx={{ textAlign: 'center', py: 3 }} data-testid="no-templates">
      <Typography component="p" variant="h5" sx={{ mb: 1 }}>
        {RULES.noTemplates}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 520, mx: 'auto' }}>
        {RULES.noTemplatesNext}
      </Typography>
      <Button variant="contained" onClick={onShowRuleSets}>
        {RULES.goToRuleSets}
      </Button>
    </Box>
  );
}
