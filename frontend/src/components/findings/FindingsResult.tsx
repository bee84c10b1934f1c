import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import type { AnswerDetailJson, FindingJson, RuledOutJson, UndeterminedRuleJson } from '@cds/contracts';
import { NO_RECOMMENDATION } from '../../messages';
import { FindingCard } from './FindingCard';
import { findingsOf } from './clinicalFormat';

type Heading = 'h2' | 'h3';

/** Rules that could not be decided, each with the inputs it still needs. */
export function UndeterminedList({ rules, headingLevel = 'h3' }: { rules: UndeterminedRuleJson[]; headingLevel?: Heading }) {
  if (!rules.length) return null;
  return (
    <Box
      component="section"
      aria-labelledby="undetermined-title"
      data-testid="undetermined-rules"
      sx={{ border: 1, borderColor: 'divider', borderStyle: 'dashed', borderRadius: 2, p: { xs: 2, sm: 2.5 } }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
        <HelpOutlineIcon color="action" aria-hidden="true" />
        <Typography id="undetermined-title" variant="h3" component={headingLevel} sx={{ fontSize: '1.1rem' }}>
          Could not be evaluated
        </Typography>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        These rules need values that were not available. They neither fired nor were ruled out.
      </Typography>
      <Stack component="ul" spacing={0.75} sx={{ m: 0, pl: 2.5 }}>
        {rules.map((r) => {
          const missing = r.unknown_parameters.map((p) => p.display_name || p.parameter_name || 'an input').join(', ');
          return (
            <li key={r.rule_id}>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {r.rule_name}
              </Typography>
              {r.rule_set_name && (
                <Typography component="span" color="text.secondary">
                  {' '}
                  ({r.rule_set_name})
                </Typography>
              )}
              {missing && <Typography component="span"> — missing: {missing}</Typography>}
            </li>
          );
        })}
      </Stack>
    </Box>
  );
}

/** Nothing fired: what the answers ruled out, each with the answer as entered and the cut-point it is on the other side of. */
export function NoRecommendationCard({
  children,
  headingLevel = 'h2',
  ruledOut = [],
}: {
  children?: ReactNode;
  headingLevel?: Heading;
  ruledOut?: RuledOutJson[];
}) {
  return (
    <Box data-testid="no-recommendation-card" sx={{ textAlign: 'center', py: 3 }}>
      <Typography id="no-rec-title" variant="h2" component={headingLevel} sx={{ fontSize: '1.4rem', mb: 1 }}>
        {NO_RECOMMENDATION.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: children || ruledOut.length ? 1 : 0, maxWidth: 560, mx: 'auto' }}>
        {ruledOut.length ? NO_RECOMMENDATION.ruledOut : NO_RECOMMENDATION.body}
      </Typography>
      {ruledOut.length > 0 && (
        <Box
          component="ul"
          aria-label="Ruled out"
          data-testid="ruled-out"
          sx={{ textAlign: 'left', maxWidth: 560, mx: 'auto', mt: 0, mb: children ? 3 : 0, pl: 2.5 }}
        >
          {ruledOut.map((r, i) => (
            <li key={i}>
              <Typography component="span">{r.statement}</Typography>
            </li>
          ))}
        </Box>
      )}
      {children}
    </Box>
  );
}

/**
 * The result as a list of cards in the server's order (critical and high first); the top card is the
 * primary recommendation. Nothing fired: the spec's "No Recommendation Available". Undetermined rules
 * follow under "Could not be evaluated".
 */
export function FindingsResult({
  result,
  answers,
  headingLevel = 'h3',
  noRecommendationActions,
}: {
  result: {
    findings?: FindingJson[];
    recommendation?: FindingJson | null;
    undetermined_rules?: UndeterminedRuleJson[];
    ruled_out?: RuledOutJson[];
  };
  answers?: AnswerDetailJson[];
  headingLevel?: Heading;
  noRecommendationActions?: ReactNode;
}) {
  const findings = findingsOf(result);
  const primaryId = result.recommendation?.rule_id ?? findings[0]?.rule_id;
  return (
    <Stack spacing={2}>
      {findings.length === 0 ? (
        <NoRecommendationCard headingLevel={headingLevel} ruledOut={result.ruled_out}>
          {noRecommendationActions}
        </NoRecommendationCard>
      ) : (
        <Stack component="ol" spacing={2} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label="Findings">
          {findings.map((f) => (
            <li key={f.rule_id}>
              <FindingCard finding={f} primary={f.rule_id === primaryId} answers={answers} headingLevel={headingLevel} />
            </li>
          ))}
        </Stack>
      )}
      <UndeterminedList rules={result.undetermined_rules ?? []} headingLevel={headingLevel} />
    </Stack>
  );
}
