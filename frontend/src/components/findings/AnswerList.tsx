import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { AnswerDetailJson } from '@cds/contracts';
import { formatDateTime } from '../format';
import { answerProvenance, answerText } from './clinicalFormat';

/** The answers as entered, in the order given: display name, value with its unit, how and when it was given. */
export function AnswerList({ answers, label = 'Answers given' }: { answers: AnswerDetailJson[]; label?: string }) {
  return (
    <Box component="ol" aria-label={label} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {answers.map((a, i) => (
        <Box
          component="li"
          key={`${a.parameter_id}-${i}`}
          data-testid="answer-row"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'minmax(10rem, 1fr) 2fr' },
            columnGap: 2,
            py: 1,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Typography sx={{ color: 'text.secondary' }}>
            {i + 1}. {a.display_name}
          </Typography>
          <Box>
            <Typography component="span" sx={{ fontWeight: 600 }}>
              {answerText(a)}
            </Typography>
            <Typography component="span" color="text.secondary">
              {answerProvenance(a) ? ` (${answerProvenance(a)})` : ''}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Answered {formatDateTime(a.answered_at)}
            </Typography>
          </Box>
        </Box>
      ))}
    </Box>
  );
}
