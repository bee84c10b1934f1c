import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ImpactProgress } from '../../providers/impactPreviewStream';

const count = (n: number) => n.toLocaleString('en-US');

/** What the preview says before the first count and after the last: a rule set's preview reads assessments first and stores itself last. */
export interface ProgressWords {
  reading: string;
  finishing: string;
}

const RULE_SET_WORDS: ProgressWords = {
  reading: 'Reading the rule sets and the recorded assessments...',
  finishing: 'storing the preview...',
};

/** What the progress says: the server's own count of patients compared (for a rule set: recorded, vignettes and generated together). */
export function progressText(progress: ImpactProgress | null, words: ProgressWords = RULE_SET_WORDS): string {
  if (!progress) return words.reading;
  const compared = `${count(progress.done)} of ${count(progress.total)} patients compared`;
  return progress.done >= progress.total ? `${compared}; ${words.finishing}` : compared;
}

/**
 * The impact preview while the server computes it (a rule set's 1 to 4 s, a measure draft's up to minutes over a
 * large panel): a determinate bar moved only by the server's progress lines, never by a timer.
 */
export function ImpactPreviewProgress({ progress, words }: { progress: ImpactProgress | null; words?: ProgressWords }) {
  const text = progressText(progress, words);
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
