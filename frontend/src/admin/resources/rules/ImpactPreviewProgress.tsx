import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ImpactProgress } from '../../providers/impactPreviewStream';

const count = (n: number) => n.toLocaleString('en-US');

/** What the progress says: the server's own count of patients compared (recorded, vignettes and generated together). */
export function progressText(progress: ImpactProgress | null): string {
  if (!progress) return 'Reading the rule sets and the recorded assessments...';
  const compared = `${count(progress.done)} of ${count(progress.total)} patients compared`;
  return progress.done >= progress.total ? `${compared}; storing the preview...` : compared;
}

/**
 * The impact preview while the server computes it (1 to 4 s): a determinate bar moved only by the
 * server's progress lines, never by a timer.
 */
export function ImpactPreviewProgress({ progress }: { progress: ImpactProgress | null }) {
  const text = progressText(progress);
  const value = progress && progress.total > 0 ? Math.min(100, (progress.done / progress.total) * 100) : 0;
  return (
    <Box sx={{ mt: 1.5 }} data-testid="impact-preview-progress">
      <Typography>Computing the impact on patients...</Typography>
      <LinearProgress
        variant="determinate"
        value={value}
        aria-label="Patients compared"
        aria-valuetext={text}
        sx={{ my: 1, height: 8, borderRadius: 4 }}
      />
      <Typography variant="body2" color="text.secondary" role="status">
        {text}
      </Typography>
    </Box>
  );
}
