import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import PublishIcon from '@mui/icons-material/Publish';
import { useQueryClient } from '@tanstack/react-query';
import { useDelete, useGetList, useUpdate } from 'react-admin';
import { errorMessage } from '../../../api';
import { formatDate } from '../../../components/format';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useAdminQuery } from '../../components/useAdminQuery';
import { ADMIN_TOASTS, RULES } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { ParameterJson, RuleJson, RuleSetJson } from '@cds/contracts';
import { TestRuleDialog } from '../../rule-designer/TestRuleDialog';
import { PublishDialog, VersionHistory } from './PublishDialog';
import { RuleItem } from './RuleItem';

/** The selected rule set's rules, its Publish action and its version history. */
export function RulesPanel({
  set,
  parameters,
  onAddRule,
}: {
  set: RuleSetJson | null;
  parameters: ParameterJson[];
  onAddRule: (set: RuleSetJson) => void;
}) {
  const rules = useGetList<RuleJson>(
    'rules',
    // Issue 10 item 17: highest priority first, the order findings are ranked in.
    { filter: { rule_set_id: set?.id ?? '' }, pagination: { page: 1, perPage: 100 }, sort: { field: 'priority', order: 'DESC' } },
    { enabled: !!set },
  );
  // Issue 10 item 17: nothing to publish when the draft is what the latest version holds.
  const check = useAdminQuery(
    ['rule-sets', set?.id ?? '', 'publish-check', rules.data?.map((r) => `${r.id}:${r.updated_at}`).join(',')],
    () => adminApi.publishCheck(set!.id),
    { enabled: !!set },
  );
  const unchanged = !!check.data && !check.data.has_changes;
  const versions = useAdminQuery(['rule-sets', set?.id ?? '', 'versions'], () => adminApi.versions(set!.id), { enabled: !!set });
  const [testing, setTesting] = useState<RuleJson | null>(null);
  const [deleting, setDeleting] = useState<RuleJson | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [remove, { isPending: removing }] = useDelete<RuleJson>();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [update] = useUpdate<RuleSetJson>();

  const confirmDelete = () => {
    if (!deleting) return;
    const name = deleting.name;
    remove(
      'rules',
      { id: deleting.id, previousData: deleting },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setDeleting(null);
          void queryClient.invalidateQueries({ queryKey: ['rules'] });
          void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
          toast(ADMIN_TOASTS.ruleDeleted(name));
        },
        onError: (e) => {
          console.error('Delete failed', e);
          setDeleting(null);
          toast(ADMIN_TOASTS.ruleDeleteFailed);
        },
      },
    );
  };

  const toggleTemplate = (s: RuleSetJson) =>
    update(
      'rule-sets',
      { id: s.id, data: { is_template: !s.is_template }, previousData: s },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
          toast({
            title: 'Success',
            description: s.is_template ? `"${s.name}" is no longer a template.` : `"${s.name}" is now a template.`,
            variant: 'success',
          });
        },
        onError: (e) => toast({ title: 'Error', description: errorMessage(e, 'The rule set could not be updated.') }),
      },
    );

  const list = set ? (rules.data ?? []) : [];
  return (
    <Card component="section" aria-labelledby="rules-panel-title">
      <CardHeader
        title={set ? `Rules (${rules.isPending ? '…' : (rules.total ?? list.length)})` : 'Rules'}
        subheader={
          set
            ? `${set.name}${set.latest_version ? ` · published v${set.latest_version}${set.published_at ? ` on ${formatDate(set.published_at)}` : ''}` : ' · not published yet'}`
            : undefined
        }
        slotProps={{ title: { id: 'rules-panel-title', component: 'h2', variant: 'h4' } }}
        // On a phone the actions and the reason Publish is off go under the title, not beside it in a sliver.
        sx={{
          flexWrap: { xs: 'wrap', sm: 'nowrap' },
          '& .MuiCardHeader-action': { m: 0, mt: { xs: 1, sm: 0 }, width: { xs: '100%', sm: 'auto' } },
        }}
        action={
          set && (
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: { xs: 'flex-start', sm: 'flex-end' }, gap: 0.5 }}>
              <Box sx={{ display: 'flex', gap: 1 }}>
                <Button size="small" onClick={() => toggleTemplate(set)}>
                  {set.is_template ? 'Unmark template' : 'Mark as template'}
                </Button>
                <Button
                  size="small"
                  variant="contained"
                  startIcon={<PublishIcon />}
                  onClick={() => setPublishing(true)}
                  disabled={unchanged}
                  aria-describedby={unchanged ? 'publish-unavailable' : undefined}
                >
                  Publish
                </Button>
              </Box>
              {/* Said in the page, not in a hover tooltip: a disabled button gets no hover, and a phone has none. */}
              {unchanged && (
                <Typography
                  id="publish-unavailable"
                  variant="caption"
                  color="text.secondary"
                  sx={{ textAlign: { xs: 'left', sm: 'right' }, maxWidth: { sm: 260 } }}
                >
                  {RULES.nothingToPublish(check.data?.latest_version ?? set.latest_version)}
                </Typography>
              )}
            </Box>
          )
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {!set && <Typography color="text.secondary">{RULES.selectRuleSet}</Typography>}
        {set && rules.isPending && (
          <Stack spacing={1} role="status" aria-label="Loading rules">
            <Skeleton height={72} />
            <Skeleton height={72} />
          </Stack>
        )}
        {set && rules.error ? <Typography color="error">{errorMessage(rules.error, 'The rules could not be loaded.')}</Typography> : null}
        {set && !rules.isPending && !rules.error && !list.length && (
          <Box sx={{ textAlign: 'center', py: 3 }}>
            <Typography color="text.secondary" sx={{ mb: 1.5 }}>
              {RULES.noRules}
            </Typography>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => onAddRule(set)}>
              {RULES.addRule}
            </Button>
          </Box>
        )}
        {!!list.length && (
          <Stack component="ul" spacing={1} sx={{ m: 0, p: 0 }} aria-label={`Rules of ${set?.name}`}>
            {list.map((r) => (
              <RuleItem key={r.id} rule={r} onTest={() => setTesting(r)} onDelete={() => setDeleting(r)} />
            ))}
          </Stack>
        )}
        {set && versions.data && <VersionHistory versions={versions.data} />}
      </CardContent>
      <ConfirmDialog
        open={!!deleting}
        title="Delete Rule"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={removing}
        destructive
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        {RULES.deleteConfirm(deleting?.name ?? '')}
      </ConfirmDialog>
      {testing && <TestRuleDialog rule={testing} parameters={parameters} onClose={() => setTesting(null)} />}
      {publishing && set && <PublishDialog ruleSet={set} onClose={() => setPublishing(false)} />}
    </Card>
  );
}
