import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../api';
import { formatDateTime } from '../../../components/format';
import { SEVERITY_LABEL, severityLevel } from '../../../components/SeverityBadge';
import { useAdminQuery } from '../../components/useAdminQuery';
import { ADMIN_TOASTS } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { DiffJson, RuleChangeDetailJson, RuleChangeField, RuleChangeJson, RuleSetJson, VersionSummaryJson } from '@cds/contracts';
import { ImpactPreviewProgress } from './ImpactPreviewProgress';
import { ImpactPreviewView, preloadTransitionsChart } from './ImpactPreviewView';
import type { ImpactProgress } from '../../providers/impactPreviewStream';

const FIELD_LABEL: Record<string, string> = {
  name: 'name',
  description: 'description',
  priority: 'priority',
  conditions: 'conditions',
  actions: 'actions',
  source: 'source',
};

const DETAIL_LABEL: Record<RuleChangeField, string> = {
  name: 'Name',
  conditions: 'Conditions',
  priority: 'Priority',
  severity: 'Severity',
  actions: 'Actions',
  description: 'Description',
  source: 'Source',
};

const SEVERITY_PREFIX = /(^|; )(critical|high|medium|low): /g;

/**
 * A side of a change as an admin reads it: a severity by its display name ("Medium", not the stored
 * "medium"), also where it leads an action ("High: Refer to nephrology").
 */
export function detailText(field: RuleChangeField, value: string): string {
  if (field === 'severity') return SEVERITY_LABEL[severityLevel(value)];
  if (field === 'actions')
    return value.replace(SEVERITY_PREFIX, (_, sep: string, s: string) => `${sep}${SEVERITY_LABEL[severityLevel(s)]}: `);
  return value;
}

/** One field of a rule, old → new ("Conditions: BMI ≥ 30 kg/m² → BMI ≥ 27.5 kg/m²"); a new or removed rule shows its one side. */
function ChangeDetails({ details }: { details: RuleChangeDetailJson[] }) {
  return (
    <Box component="ul" aria-label="What changed" sx={{ m: 0, pl: 2.5, overflowWrap: 'break-word' }}>
      {details.map((d) => (
        <li key={d.field}>
          <Typography variant="body2" color="text.secondary">
            {DETAIL_LABEL[d.field]}:{' '}
            {d.before !== null && d.after !== null ? (
              <>
                {d.before ? detailText(d.field, d.before) : '(none)'} →{' '}
                <Box component="span" sx={{ color: 'text.primary', fontWeight: 500 }}>
                  {d.after ? detailText(d.field, d.after) : '(none)'}
                </Box>
              </>
            ) : (
              detailText(d.field, d.after ?? d.before ?? '')
            )}
          </Typography>
        </li>
      ))}
    </Box>
  );
}

interface DiffItem {
  id: string;
  text: string;
  details?: RuleChangeDetailJson[];
}

/**
 * The rules added, removed and changed since the latest version. `changes`, from the impact
 * preview once it arrives, says per rule what changed, old → new, with values and units.
 */
export function DiffView({ diff, changes }: { diff: DiffJson; changes?: RuleChangeJson[] }) {
  const byRule = new Map((changes ?? []).map((c) => [c.rule_id, c]));
  const detailed = (id: string, name: string, vague: string): DiffItem => {
    const change = byRule.get(id);
    return change ? { id, text: name, details: change.details } : { id, text: vague };
  };
  const section = (title: string, items: DiffItem[], color: 'success' | 'error' | 'primary') =>
    items.length ? (
      <Box component="section" aria-label={title} sx={{ mb: 1.5 }}>
        <Typography component="h3" variant="h6" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <Chip size="small" color={color} label={items.length} /> {title}
        </Typography>
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
          {items.map((i) => (
            <li key={i.id}>
              <Typography variant="body2">{i.text}</Typography>
              {i.details && <ChangeDetails details={i.details} />}
            </li>
          ))}
        </Box>
      </Box>
    ) : null;
  const changedIds = new Set(diff.changed.map((c) => c.id));
  return (
    <Box data-testid="publish-diff">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {diff.from
          ? `Compared with version ${diff.from.number}${diff.from.published_at ? `, published ${formatDateTime(diff.from.published_at)}` : ''}.`
          : 'This will be the first published version.'}
      </Typography>
      {section(
        'Rules added',
        diff.added.map((r) => detailed(r.id, r.name, r.name)),
        'success',
      )}
      {section(
        'Rules removed',
        diff.removed.map((r) => detailed(r.id, r.name, r.name)),
        'error',
      )}
      {section(
        'Rules changed',
        [
          ...diff.changed.map((c) => detailed(c.id, c.name, `${c.name}: ${c.fields.map((f) => FIELD_LABEL[f] ?? f).join(', ')}`)),
          // Same rule, read through a parameter whose definition changed (units, name).
          ...(changes ?? [])
            .filter((c) => c.kind === 'parameters' && !changedIds.has(c.rule_id))
            .map((c) => ({ id: c.rule_id, text: `${c.rule_name} (a parameter it uses changed)`, details: c.details })),
        ],
        'primary',
      )}
      {section(
        'Parameters changed',
        [
          ...diff.parameters.added.map((p) => ({ id: `a-${p.id}`, text: `${p.display_name} (now used)` })),
          ...diff.parameters.removed.map((p) => ({ id: `r-${p.id}`, text: `${p.display_name} (no longer used)` })),
          ...diff.parameters.changed.map((p) => ({ id: `c-${p.id}`, text: `${p.name}: ${p.fields.join(', ')}` })),
        ],
        'primary',
      )}
      {diff.unchanged > 0 && (
        <Typography variant="body2" color="text.secondary">
          {diff.unchanged} rule{diff.unchanged === 1 ? '' : 's'} unchanged.
        </Typography>
      )}
    </Box>
  );
}

function FindingList({ label, items }: { label: string; items: Array<{ key: string; text: string }> }) {
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
      {items.map((i) => (
        <li key={i.key}>
          <Typography variant="body2">{i.text}</Typography>
        </li>
      ))}
    </Box>
  );
}

/** Versions newest first, with the warnings acknowledged to publish each (who, when, why). */
export function VersionHistory({ versions }: { versions: VersionSummaryJson[] }) {
  if (!versions.length) return null;
  return (
    <Box component="section" aria-label="Version history" sx={{ mt: 2 }}>
      <Typography component="h3" variant="h6">
        Version history
      </Typography>
      <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
        {versions.map((v) => (
          <li key={v.id}>
            <Typography variant="body2">
              Version {v.number}, published {formatDateTime(v.published_at)}
              {v.published_by_email ? ` by ${v.published_by_email}` : ''}
            </Typography>
            {v.warning_acknowledgement && (
              <Typography variant="body2" color="text.secondary">
                {v.warning_acknowledgement.findings.length} warning{v.warning_acknowledgement.findings.length === 1 ? '' : 's'} acknowledged
                by {v.warning_acknowledgement.by_email ?? 'an administrator'} on {formatDateTime(v.warning_acknowledgement.at)}: “
                {v.warning_acknowledgement.reason}”
              </Typography>
            )}
          </li>
        ))}
      </Box>
    </Box>
  );
}

/**
 * Publish shows the diff from the last published version and what the publish gate found on the
 * draft together with every active published rule set: errors block (Publish disabled, findings
 * listed), failing vignettes and test cases block, warnings need a reason that is recorded.
 * Publish is enabled only once the impact preview is shown, and the request names it.
 */
export function PublishDialog({ ruleSet, onClose }: { ruleSet: RuleSetJson; onClose: () => void }) {
  const diff = useAdminQuery(['rule-sets', ruleSet.id, 'diff'], () => adminApi.diff(ruleSet.id));
  useEffect(preloadTransitionsChart, []);
  const check = useAdminQuery(['rule-sets', ruleSet.id, 'publish-check', 'dialog'], () => adminApi.publishCheck(ruleSet.id));
  const versions = useAdminQuery(['rule-sets', ruleSet.id, 'versions'], () => adminApi.versions(ruleSet.id));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [reasonTouched, setReasonTouched] = useState(false);
  const toast = useToast();
  const queryClient = useQueryClient();
  const c = check.data;
  const warnings = c?.warnings ?? [];
  const blocked = !!c && (c.errors.length > 0 || c.failing_vignettes.length > 0 || c.failing_test_cases.length > 0);
  const nothing = !!c && !c.has_changes && c.latest_version !== null;
  const needsReason = warnings.length > 0 && !reason.trim();
  // Issue 13: publishing names the impact preview the admin saw; the server refuses a stale one.
  const [progress, setProgress] = useState<ImpactProgress | null>(null);
  const impact = useAdminQuery(
    ['rule-sets', ruleSet.id, 'impact-preview', 'dialog'],
    () => {
      setProgress(null);
      return adminApi.impactPreview(ruleSet.id, setProgress);
    },
    { enabled: !!c && !nothing },
  );

  const publish = async () => {
    setBusy(true);
    setError(null);
    try {
      const v = await adminApi.publish(ruleSet.id, {
        impact_preview_id: impact.data?.id,
        ...(warnings.length ? { acknowledge_warnings: { reason: reason.trim() } } : {}),
      });
      toast(ADMIN_TOASTS.published(v.number));
      void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
      onClose();
    } catch (e) {
      // 409: the gate found something since the dialog opened; the message says what, and the lists refresh.
      setError(errorMessage(e, 'Publishing failed. Please try again.'));
      toast({ title: 'Error', description: errorMessage(e, 'Publishing failed. Please try again.') });
      void check.refetch();
      void impact.refetch();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="publish-title" maxWidth="md" fullWidth>
      <DialogTitle id="publish-title">Publish {ruleSet.name}</DialogTitle>
      <DialogContent dividers>
        {diff.isPending && <Typography>Loading the changes...</Typography>}
        {diff.error ? <Alert severity="error">{errorMessage(diff.error, 'The changes could not be loaded.')}</Alert> : null}
        {diff.data && <DiffView diff={diff.data} changes={impact.data?.changes} />}
        {check.isPending && <Typography sx={{ mt: 1 }}>Checking the rules...</Typography>}
        {check.error ? <Alert severity="error">{errorMessage(check.error, 'The publish check could not run.')}</Alert> : null}
        {nothing && (
          <Alert severity="info" sx={{ mt: 1 }}>
            Nothing changed since version {c?.latest_version}.
          </Alert>
        )}
        {c && !nothing && (
          <Box sx={{ mt: 1.5, display: 'grid', gap: 1.5 }}>
            {c.combined_rule_sets.length > 1 && (
              <Typography variant="body2" color="text.secondary">
                Checked together with every active published rule set:{' '}
                {c.combined_rule_sets
                  .filter((s) => s.id !== ruleSet.id)
                  .map((s) => s.name)
                  .join(', ')}
                .
              </Typography>
            )}
            {c.errors.length > 0 && (
              <Alert severity="error" role="region" aria-label="Blocking errors">
                <strong>
                  Publishing is blocked: {c.errors.length} error{c.errors.length === 1 ? '' : 's'} must be fixed first.
                </strong>
                <FindingList label="Errors" items={c.errors.map((f, i) => ({ key: `e${i}`, text: f.message }))} />
              </Alert>
            )}
            {(c.failing_vignettes.length > 0 || c.failing_test_cases.length > 0) && (
              <Alert severity="error" role="region" aria-label="Failing test cases">
                <strong>Publishing is blocked: these test cases fail.</strong>
                <FindingList
                  label="Failing test cases"
                  items={[
                    ...c.failing_vignettes.map((v) => ({
                      key: v.test_case_id,
                      text: `${v.test_case_name}${v.rule_set_id !== ruleSet.id ? ` (rule set ${v.rule_set_name})` : ''}: now ${
                        v.actual.primary ? `"${v.actual.primary.rule_name}" first` : 'no rule fires'
                      }`,
                    })),
                    ...c.failing_test_cases.map((f) => ({
                      key: f.test_case_id,
                      text: `${f.test_case_name} (rule "${f.rule_name}"): expected ${String(f.expected_outcome)}, now ${String(f.actual_outcome)}`,
                    })),
                  ]}
                />
              </Alert>
            )}
            {warnings.length > 0 && (
              <Alert severity="warning" role="region" aria-label="Warnings">
                <strong>
                  {warnings.length} warning{warnings.length === 1 ? '' : 's'}: review and give a reason to publish anyway.
                </strong>
                <FindingList label="Warnings" items={warnings.map((f, i) => ({ key: `w${i}`, text: f.message }))} />
              </Alert>
            )}
            {warnings.length > 0 && !blocked && (
              <TextField
                label="Reason for publishing despite the warnings"
                required
                multiline
                minRows={2}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                onBlur={() => setReasonTouched(true)}
                error={reasonTouched && !reason.trim()}
                helperText={
                  reasonTouched && !reason.trim()
                    ? 'Give a reason; it is recorded with your name in the version.'
                    : 'Recorded with your name in the version.'
                }
                slotProps={{ htmlInput: { maxLength: 1000 } }}
              />
            )}
            {!blocked && !warnings.length && <Alert severity="success">No analysis findings, and every test case passes.</Alert>}
          </Box>
        )}
        {impact.isFetching && !nothing && c && <ImpactPreviewProgress progress={progress} />}
        {impact.error ? <Alert severity="error">{errorMessage(impact.error, 'The impact preview could not run.')}</Alert> : null}
        {impact.data && !impact.isFetching && !nothing && <ImpactPreviewView preview={impact.data} ruleSetName={ruleSet.name} />}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        {versions.data && <VersionHistory versions={versions.data} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} color="secondary">
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={publish}
          disabled={busy || !diff.data || !c || nothing || blocked || needsReason || !impact.data || impact.isFetching}
          startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {busy ? 'Publishing...' : 'Publish'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
