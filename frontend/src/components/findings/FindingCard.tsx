import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import StarIcon from '@mui/icons-material/Star';
import type { ActionJson, AnswerDetailJson } from '@cds/contracts';
import { SeverityBadge, SeverityIcon } from '../SeverityBadge';
import { severityColors } from '../../theme';
import { basisAnswer, conditionText, findingSeverity, type FindingView } from './clinicalFormat';

type Heading = 'h2' | 'h3' | 'h4';

function actionText(a: ActionJson): string {
  const message = a.message?.trim();
  const value = a.value == null ? '' : String(a.value).trim();
  if (message && value && value !== message) return `${message} — ${value}`;
  return message || value || a.type;
}

function deeper(h: Heading): Heading {
  return h === 'h2' ? 'h3' : 'h4';
}

/**
 * One rule that fired: severity (icon, colour and word), what to do, why (each condition with the
 * answer as entered and how it was given), and which rule, version, rule set and source said so.
 */
export function FindingCard({
  finding,
  primary = false,
  answers,
  headingLevel = 'h3',
  dense = false,
  footer,
}: {
  finding: FindingView;
  /** The top card: the primary recommendation. */
  primary?: boolean;
  /** Stored answers, to say how each value was given. */
  answers?: AnswerDetailJson[];
  headingLevel?: Heading;
  /** Tighter spacing for the chat. */
  dense?: boolean;
  footer?: ReactNode;
}) {
  const severity = findingSeverity(finding);
  const colors = severityColors[severity];
  const sub = deeper(headingLevel);
  const titleId = `finding-${finding.rule_id}-title`;
  return (
    <Box
      component="article"
      aria-labelledby={titleId}
      data-testid="finding-card"
      data-severity={severity}
      data-primary={primary || undefined}
      sx={{
        border: 1,
        borderColor: 'divider',
        borderLeft: `6px solid ${colors.border}`,
        borderRadius: 2,
        bgcolor: 'background.paper',
        p: dense ? 1.5 : { xs: 2, sm: 2.5 },
        minWidth: 0,
      }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <SeverityIcon severity={severity} sx={{ fontSize: dense ? 28 : 36, mt: 0.25 }} aria-hidden="true" />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          {primary && (
            <Chip
              size="small"
              icon={<StarIcon aria-hidden="true" />}
              label="Primary recommendation"
              color="primary"
              variant="outlined"
              sx={{ mb: 0.75, fontWeight: 600 }}
            />
          )}
          <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.5 }}>
            <Typography
              id={titleId}
              variant="h3"
              component={headingLevel}
              sx={{ fontSize: dense ? '1.05rem' : '1.25rem', overflowWrap: 'anywhere' }}
            >
              {finding.rule_name}
            </Typography>
            <SeverityBadge severity={severity} />
          </Box>
          {finding.description && <Typography sx={{ mt: 0.75, overflowWrap: 'anywhere' }}>{finding.description}</Typography>}
        </Box>
      </Stack>

      {finding.actions?.length > 0 && (
        <Box sx={{ mt: dense ? 1.25 : 2 }}>
          <Typography variant="subtitle2" component={sub} sx={{ mb: 0.5 }}>
            Recommended actions
          </Typography>
          <Stack component="ul" spacing={0.75} sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {finding.actions.map((a, i) => (
              <Box component="li" key={i} sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
                <Chip size="small" variant="outlined" label={a.type} sx={{ textTransform: 'capitalize' }} />
                <Typography sx={{ flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' }}>{actionText(a)}</Typography>
              </Box>
            ))}
          </Stack>
        </Box>
      )}

      <Box sx={{ mt: dense ? 1.25 : 2 }}>
        <Typography variant="subtitle2" component={sub} sx={{ mb: 0.5 }}>
          Why
        </Typography>
        {finding.basis?.length ? (
          <Stack component="ul" spacing={0.75} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label="Conditions met">
            {finding.basis.map((b, i) => {
              const answer = basisAnswer(b, answers);
              return (
                <Box
                  component="li"
                  key={`${b.parameter_id}-${i}`}
                  data-testid="basis-item"
                  sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, rowGap: 0.25, alignItems: 'baseline' }}
                >
                  <Typography component="span" sx={{ fontWeight: 600 }}>
                    {conditionText(b)}
                  </Typography>{' '}
                  <Typography component="span" color="text.secondary">
                    — answer:{' '}
                    <Box component="strong" sx={{ color: 'text.primary' }}>
                      {answer.text}
                    </Box>{' '}
                    ({answer.how})
                  </Typography>
                </Box>
              );
            })}
          </Stack>
        ) : (
          <Typography color="text.secondary">The rule did not report the conditions it matched.</Typography>
        )}
      </Box>

      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ mt: dense ? 1 : 1.5, overflowWrap: 'anywhere' }}
        data-testid="rule-provenance"
      >
        Rule: <strong>{finding.rule_name}</strong>
        {finding.rule_version != null && <> · version {String(finding.rule_version)}</>}
        {finding.rule_set_name && <> · Rule set: {finding.rule_set_name}</>}
        {finding.source && <> · Source: {finding.source}</>}
      </Typography>
      {footer}
    </Box>
  );
}
