import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../api';
import { adminApi } from '../providers/dataProvider';
import type { AnalysisJson, DraftRule, Finding } from '@cds/contracts';

const SEVERITY: Record<Finding['severity'], { color: 'error' | 'warning' | 'info'; label: string }> = {
  error: { color: 'error', label: 'Error' },
  warning: { color: 'warning', label: 'Warning' },
  info: { color: 'info', label: 'Info' },
};

/** The id the server gives an unsaved rule in a draft analysis (the first rule sent). */
export const DRAFT_RULE_ID = 'draft-1';

/**
 * Static analysis as the admin edits: the draft rule, merged over the saved rules of its set,
 * goes to POST /api/rule-sets/:id/analysis a moment after the last change.
 */
export function useLiveAnalysis(ruleSetId: string | undefined, rule: DraftRule | null, delay = 600) {
  const [state, setState] = useState<{ result: AnalysisJson | null; error: unknown; loading: boolean }>({
    result: null,
    error: null,
    loading: false,
  });
  const body = rule ? JSON.stringify(rule) : null;
  useEffect(() => {
    if (!ruleSetId || !body) return;
    const ctrl = new AbortController();
    const t = setTimeout(() => {
      setState((s) => ({ ...s, loading: true }));
      adminApi
        .analyzeDraft(ruleSetId, [JSON.parse(body) as DraftRule], ctrl.signal)
        .then((result) => setState({ result, error: null, loading: false }))
        .catch((error: unknown) => {
          if (ctrl.signal.aborted) return;
          setState((s) => ({ ...s, error, loading: false }));
        });
    }, delay);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [ruleSetId, body, delay]);
  return state;
}

export function AnalysisPanel({
  result,
  error,
  loading,
  thisRuleId,
  ruleNames,
}: {
  result: AnalysisJson | null;
  error: unknown;
  loading: boolean;
  thisRuleId: string;
  ruleNames: Record<string, string>;
}) {
  const mine = result?.findings.filter((f) => f.rule_ids.includes(thisRuleId)) ?? [];
  const others = result?.findings.filter((f) => !f.rule_ids.includes(thisRuleId)) ?? [];
  const name = (id: string) => (id === thisRuleId ? 'this rule' : (ruleNames[id] ?? 'another rule'));
  // Read out by screen readers when the count changes, as the admin types.
  const announce = result
    ? mine.length
      ? `${mine.length} finding${mine.length === 1 ? '' : 's'} for this rule`
      : 'No findings for this rule'
    : '';

  const list = (items: Finding[]) => (
    <List dense disablePadding>
      {items.map((f, i) => (
        <ListItem key={`${f.code}-${i}`} disableGutters sx={{ alignItems: 'flex-start', gap: 1 }} data-testid="finding">
          <Chip size="small" color={SEVERITY[f.severity].color} label={SEVERITY[f.severity].label} sx={{ mt: 0.25 }} />
          <Box>
            <Typography variant="body2">{f.message}</Typography>
            {f.rule_ids.length > 1 && (
              <Typography variant="caption" color="text.secondary">
                Involves {f.rule_ids.map(name).join(', ')}
              </Typography>
            )}
          </Box>
        </ListItem>
      ))}
    </List>
  );

  return (
    <Box
      component="section"
      aria-labelledby="analysis-title"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1.5, p: 2, bgcolor: 'background.paper' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography id="analysis-title" component="h2" variant="h5">
          Analysis
        </Typography>
        {loading && <CircularProgress size={14} aria-label="Analysing" />}
      </Box>
      <span className="visually-hidden" role="status">
        {announce}
      </span>
      {error ? <Alert severity="warning">{errorMessage(error, 'The analysis is unavailable right now.')}</Alert> : null}
      {!result && !error && (
        <Typography variant="body2" color="text.secondary">
          Findings appear here as you edit.
        </Typography>
      )}
      {result && !mine.length && (
        <Typography variant="body2" color="success.dark">
          No findings for this rule.
        </Typography>
      )}
      {mine.length > 0 && list(mine)}
      {others.length > 0 && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5, fontWeight: 600 }}>
            Elsewhere in this rule set
          </Typography>
          {list(others)}
        </>
      )}
    </Box>
  );
}
