import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ScienceIcon from '@mui/icons-material/Science';
import EditIcon from '@mui/icons-material/Edit';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import PublishIcon from '@mui/icons-material/Publish';
import { useQueryClient } from '@tanstack/react-query';
import { useDelete, useGetList, useUpdate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { errorMessage } from '../../../api';
import { formatDate } from '../../../components/format';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useAdminQuery } from '../../components/useAdminQuery';
import { SearchBox } from '../../components/SearchBox';
import { ADMIN_TOASTS, RULES } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { ParameterJson, RuleJson, RuleSetJson } from '@cds/contracts';
import { TestRuleDialog } from '../../rule-designer/TestRuleDialog';
import { PublishDialog, VersionHistory } from './PublishDialog';

function RuleSetItem({
  set,
  selected,
  onSelect,
  onAddRule,
}: {
  set: RuleSetJson;
  selected: boolean;
  onSelect: () => void;
  onAddRule: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const queryClient = useQueryClient();
  const toggle = async (active: boolean) => {
    setBusy(true);
    try {
      await adminApi.setRuleSetActivation(set.id, active);
      await queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
      toast(ADMIN_TOASTS.ruleSetActivated(set.name, active));
    } catch (e) {
      console.error('Rule set activation failed', e);
      toast(ADMIN_TOASTS.ruleSetActivationFailed);
    } finally {
      setBusy(false);
    }
  };
  const titleId = `rule-set-${set.id}`;
  return (
    <Box
      component="li"
      aria-labelledby={titleId}
      aria-current={selected ? 'true' : undefined}
      data-testid="rule-set-item"
      onClick={onSelect}
      sx={{
        listStyle: 'none',
        p: 1.5,
        borderRadius: 1.5,
        border: 1,
        borderColor: selected ? 'primary.main' : 'divider',
        bgcolor: selected ? 'primary.light' : 'background.paper',
        cursor: 'pointer',
      }}
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Link
          id={titleId}
          component="button"
          type="button"
          underline="hover"
          onClick={(e: React.MouseEvent) => {
            e.stopPropagation();
            onSelect();
          }}
          sx={{ fontWeight: 600, fontSize: '1rem', color: 'text.primary', textAlign: 'left' }}
          aria-pressed={selected}
        >
          {set.name}
        </Link>
        {set.is_published && <Chip size="small" color="success" label="Published" />}
        {set.is_template && <Chip size="small" color="primary" variant="outlined" label="Template" />}
      </Box>
      {set.description && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {set.description}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mt: 1 }} onClick={(e) => e.stopPropagation()}>
        <Typography variant="body2" color="text.secondary">
          {formatDate(set.created_at)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          v{set.version}
        </Typography>
        <FormControlLabel
          control={
            <Switch
              size="small"
              checked={set.is_active}
              onChange={(e) => void toggle(e.target.checked)}
              disabled={busy}
              slotProps={{ input: { 'aria-label': `${set.name} active` } }}
            />
          }
          label={set.is_active ? 'Active' : 'Inactive'}
          slotProps={{ typography: { variant: 'body2' } }}
          sx={{ mr: 0 }}
        />
        <Button size="small" startIcon={<AddIcon />} onClick={onAddRule} sx={{ ml: 'auto' }} aria-label={`Add Rule to ${set.name}`}>
          {RULES.addRule}
        </Button>
      </Box>
    </Box>
  );
}

function RuleItem({ rule, onTest, onDelete }: { rule: RuleJson; onTest: () => void; onDelete: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [cloning, setCloning] = useState(false);
  const clone = async () => {
    setCloning(true);
    try {
      await adminApi.cloneRule(rule.id);
      await queryClient.invalidateQueries({ queryKey: ['rules'] });
      void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
      toast(ADMIN_TOASTS.ruleCloned(rule.name));
    } catch (e) {
      console.error('Clone failed', e);
      toast(ADMIN_TOASTS.ruleCloneFailed);
    } finally {
      setCloning(false);
    }
  };
  const base = `/admin/rules/${encodeURIComponent(rule.id)}`;
  return (
    <Box component="li" data-testid="rule-item" sx={{ listStyle: 'none', p: 1.5, borderRadius: 1.5, border: 1, borderColor: 'divider' }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Link component={RouterLink} to={`${base}/show`} sx={{ fontWeight: 600 }}>
          {rule.name}
        </Link>
        <Chip
          size="small"
          color={rule.is_active ? 'success' : 'default'}
          variant="outlined"
          label={rule.is_active ? 'Active' : 'Inactive'}
        />
        <Box sx={{ ml: 'auto', display: 'flex' }}>
          <Tooltip title="Test Rule">
            <IconButton size="small" aria-label={`Test Rule ${rule.name}`} onClick={onTest}>
              <ScienceIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title="Edit Rule">
            <IconButton size="small" aria-label={`Edit Rule ${rule.name}`} component={RouterLink} to={base}>
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title="Clone Rule">
            <span>
              <IconButton size="small" aria-label={`Clone Rule ${rule.name}`} onClick={() => void clone()} disabled={cloning}>
                <ContentCopyIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title="Delete Rule">
            <IconButton size="small" aria-label={`Delete Rule ${rule.name}`} onClick={onDelete} color="error">
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
      </Box>
      {rule.description && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {rule.description}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, mt: 0.5 }}>
        <Typography variant="body2" color="text.secondary">
          Priority: {rule.priority}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDate(rule.created_at)}
        </Typography>
      </Box>
    </Box>
  );
}

function RulesPanel({
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
        action={
          set && (
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button size="small" onClick={() => toggleTemplate(set)}>
                {set.is_template ? 'Unmark template' : 'Mark as template'}
              </Button>
              <Tooltip title={unchanged ? `Nothing changed since version ${check.data?.latest_version}` : ''}>
                <span>
                  <Button
                    size="small"
                    variant="contained"
                    startIcon={<PublishIcon />}
                    onClick={() => setPublishing(true)}
                    disabled={unchanged}
                  >
                    Publish
                  </Button>
                </span>
              </Tooltip>
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

export function RuleSetsTab({
  ruleSets,
  loading,
  error,
  search,
  onSearch,
  selected,
  onSelect,
  onAddRule,
  onCreateRuleSet,
  parameters,
}: {
  ruleSets: RuleSetJson[];
  loading: boolean;
  error: unknown;
  search: string;
  onSearch: (q: string) => void;
  selected: RuleSetJson | null;
  onSelect: (set: RuleSetJson) => void;
  onAddRule: (set: RuleSetJson) => void;
  onCreateRuleSet: () => void;
  parameters: ParameterJson[];
}) {
  return (
    <Stack spacing={2}>
      <SearchBox placeholder={RULES.search} value={search} onSearch={onSearch} />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(0, 3fr)' }, alignItems: 'start' }}>
        <Card component="section" aria-labelledby="rule-sets-title">
          <CardHeader
            title={`Rule Sets (${loading ? '…' : ruleSets.length})`}
            slotProps={{ title: { id: 'rule-sets-title', component: 'h2', variant: 'h4' } }}
          />
          <CardContent sx={{ pt: 0 }}>
            {loading && (
              <Stack spacing={1} role="status" aria-label="Loading rule sets">
                <Skeleton height={96} />
                <Skeleton height={96} />
              </Stack>
            )}
            {error ? <Typography color="error">{errorMessage(error, 'The rule sets could not be loaded.')}</Typography> : null}
            {!loading && !error && !ruleSets.length && (
              <Box sx={{ textAlign: 'center', py: 3 }}>
                <Typography color="text.secondary" sx={{ mb: 1.5 }}>
                  {RULES.noRuleSets}
                </Typography>
                <Button variant="contained" startIcon={<AddIcon />} onClick={onCreateRuleSet}>
                  {RULES.createRuleSet}
                </Button>
              </Box>
            )}
            {!!ruleSets.length && (
              <Stack component="ul" spacing={1} sx={{ m: 0, p: 0 }} aria-label="Rule sets">
                {ruleSets.map((s) => (
                  <RuleSetItem
                    key={s.id}
                    set={s}
                    selected={selected?.id === s.id}
                    onSelect={() => onSelect(s)}
                    onAddRule={() => onAddRule(s)}
                  />
                ))}
              </Stack>
            )}
          </CardContent>
        </Card>
        <RulesPanel set={selected} parameters={parameters} onAddRule={onAddRule} />
      </Box>
    </Stack>
  );
}
