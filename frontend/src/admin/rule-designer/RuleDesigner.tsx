import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ScienceIcon from '@mui/icons-material/Science';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import SaveIcon from '@mui/icons-material/Save';
import EditIcon from '@mui/icons-material/Edit';
import { useQueryClient } from '@tanstack/react-query';
import { useCreate, useGetList, useGetOne, useUpdate } from 'react-admin';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { errorDetails, errorMessage } from '../../api';
import { LoadingBlock } from '../../components/StateViews';
import { useAdminQuery } from '../components/useAdminQuery';
import { ADMIN_TOASTS, DESIGNER } from '../messages';
import { adminApi } from '../providers/dataProvider';
import { useToast } from '../providers/useToast';
import type { ParameterJson, RuleJson, RuleSetJson } from '@cds/contracts';
import { ActionsEditor } from './ActionsEditor';
import { AnalysisPanel, DRAFT_RULE_ID, useLiveAnalysis } from './AnalysisPanel';
import { ConditionsEditor } from './ConditionsEditor';
import { analysisRule, draftFromRule, draftProblems, EMPTY_DRAFT, rulePayload, type RuleDraft } from './draft';
import { TestRuleDialog } from './TestRuleDialog';

const RuleFlowPreview = lazy(() => import('./RuleFlowPreview'));

export type DesignerMode = 'create' | 'edit' | 'view';
type TabKey = 'basic' | 'conditions' | 'actions';

const tabOfField = (field: string): TabKey =>
  field.startsWith('conditions') ? 'conditions' : field.startsWith('actions') ? 'actions' : 'basic';

/** Parameters a condition may use: active ones that are not templates. */
export const usableParameters = (all: ParameterJson[] | undefined) => (all ?? []).filter((p) => p.is_active && !p.is_template);

export function RuleDesigner({ mode }: { mode: DesignerMode }) {
  const { id } = useParams();
  const search = new URLSearchParams(useLocation().search);
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();

  const ruleQuery = useGetOne<RuleJson>('rules', { id: id ?? '' }, { enabled: mode !== 'create' && !!id });
  const rule = ruleQuery.data;
  const ruleSetId = mode === 'create' ? (search.get('rule_set_id') ?? '') : (rule?.rule_set_id ?? '');
  const ruleSetQuery = useGetOne<RuleSetJson>('rule-sets', { id: ruleSetId }, { enabled: !!ruleSetId });
  const params = useAdminQuery(['parameters', 'all'], () => adminApi.allParameters());
  const allParameters = useMemo(() => params.data ?? [], [params.data]);
  const parameters = useMemo(() => usableParameters(params.data), [params.data]);
  const siblings = useGetList<RuleJson>(
    'rules',
    { filter: { rule_set_id: ruleSetId }, pagination: { page: 1, perPage: 100 }, sort: { field: 'priority', order: 'ASC' } },
    { enabled: !!ruleSetId },
  );

  const [draft, setDraft] = useState<RuleDraft>(EMPTY_DRAFT);
  const [saved, setSaved] = useState<RuleDraft>(EMPTY_DRAFT);
  const loadedFor = useRef<string | null>(null);
  const [tab, setTab] = useState<TabKey>('basic');
  const [preview, setPreview] = useState(true);
  const [showErrors, setShowErrors] = useState(false);
  const [serverError, setServerError] = useState<{ message: string; details: string[] } | null>(null);
  const [testing, setTesting] = useState(false);
  const [create, { isPending: creating }] = useCreate<RuleJson>();
  const [update, { isPending: updating }] = useUpdate<RuleJson>();
  const saving = creating || updating;
  const readOnly = mode === 'view';

  // Fill the form once, when the rule and the parameters are known; later refetches never
  // overwrite what is being typed.
  useEffect(() => {
    if (mode === 'create' || !rule || !params.data || loadedFor.current === rule.id) return;
    loadedFor.current = rule.id;
    const d = draftFromRule(rule, allParameters);
    setDraft(d);
    setSaved(d);
  }, [mode, rule, params.data, allParameters]);

  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  useEffect(() => {
    if (!dirty || readOnly) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty, readOnly]);

  const problems = useMemo(() => draftProblems(draft, parameters), [draft, parameters]);
  const errors = useMemo(() => (showErrors ? Object.fromEntries(problems.map((p) => [p.field, p.message])) : {}), [showErrors, problems]);
  const thisRuleId = mode === 'create' ? DRAFT_RULE_ID : (id ?? DRAFT_RULE_ID);
  const liveRule = useMemo(
    () =>
      readOnly || !params.data || (mode === 'create' && !dirty)
        ? null
        : analysisRule(draft, parameters, mode === 'create' ? undefined : id),
    [draft, parameters, mode, id, readOnly, params.data, dirty],
  );
  const analysis = useLiveAnalysis(ruleSetId || undefined, liveRule);
  const ruleNames = useMemo(() => Object.fromEntries((siblings.data ?? []).map((r) => [r.id, r.name])), [siblings.data]);

  const listUrl = ruleSetId ? `/admin/rules?rule_set_id=${encodeURIComponent(ruleSetId)}` : '/admin/rules';
  const back = () => {
    if (dirty && !readOnly && !window.confirm('Leave without saving? Your changes to this rule will be lost.')) return;
    navigate(listUrl);
  };

  const save = () => {
    if (saving) return;
    setShowErrors(true);
    setServerError(null);
    if (!draft.name.trim()) {
      setTab('basic');
      toast(ADMIN_TOASTS.ruleNoName);
      return;
    }
    if (!ruleSetId) {
      toast(ADMIN_TOASTS.ruleNoRuleSet);
      return;
    }
    if (problems.length) {
      setTab(tabOfField(problems[0].field));
      toast({ title: 'Validation Error', description: problems[0].message, variant: 'destructive' });
      return;
    }
    const data = rulePayload(draft, ruleSetId, parameters);
    const done = (toastInput: Parameters<typeof toast>[0]) => {
      setSaved(draft);
      void queryClient.invalidateQueries({ queryKey: ['rules'] });
      void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
      toast(toastInput);
      navigate(listUrl);
    };
    const failed = (fallback: Parameters<typeof toast>[0]) => (e: unknown) => {
      // Spec: the failure is logged and the admin stays on the page with everything typed.
      console.error('Rule save failed', e);
      setServerError({ message: errorMessage(e, 'The server refused the rule.'), details: errorDetails(e) });
      toast(fallback);
    };
    if (mode === 'create') {
      create('rules', { data }, { onSuccess: () => done(ADMIN_TOASTS.ruleCreated), onError: failed(ADMIN_TOASTS.ruleCreateFailed) });
    } else if (rule) {
      update(
        'rules',
        { id: rule.id, data, previousData: rule },
        { mutationMode: 'pessimistic', onSuccess: () => done(ADMIN_TOASTS.ruleUpdated), onError: failed(ADMIN_TOASTS.ruleUpdateFailed) },
      );
    }
  };

  const title = DESIGNER.titles[mode];
  const loading = mode !== 'create' && (ruleQuery.isPending || (params.isPending && !params.data));

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto' }}>
      <Box
        component="header"
        sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', mb: 3 }}
      >
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <Button startIcon={<ArrowBackIcon />} onClick={back} color="secondary">
            {DESIGNER.back}
          </Button>
          <Box>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
                {title}
              </Typography>
              <Chip size="small" color={mode === 'create' ? 'default' : 'success'} label={mode === 'create' ? 'Draft' : 'Active'} />
            </Box>
            <Typography color="text.secondary">
              {DESIGNER.subtitle}
              {ruleSetQuery.data ? ` · Rule set: ${ruleSetQuery.data.name}` : ''}
            </Typography>
          </Box>
        </Box>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Tooltip title={mode === 'create' ? 'Save the rule first to test it' : dirty ? 'Tests run on the saved rule' : ''}>
            <span>
              <Button variant="outlined" startIcon={<ScienceIcon />} onClick={() => setTesting(true)} disabled={mode === 'create' || !rule}>
                Test Rule
              </Button>
            </span>
          </Tooltip>
          <Button
            variant="outlined"
            startIcon={preview ? <VisibilityOffIcon /> : <VisibilityIcon />}
            onClick={() => setPreview((p) => !p)}
            aria-pressed={preview}
          >
            {preview ? 'Hide Preview' : 'Show Preview'}
          </Button>
          {readOnly ? (
            <Button variant="contained" startIcon={<EditIcon />} onClick={() => navigate(`/admin/rules/${encodeURIComponent(id ?? '')}`)}>
              Edit Rule
            </Button>
          ) : (
            <Button
              variant="contained"
              startIcon={saving ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <SaveIcon />}
              onClick={save}
              disabled={saving || loading}
            >
              {saving ? 'Saving...' : 'Save Rule'}
            </Button>
          )}
        </Box>
      </Box>

      {loading ? (
        <LoadingBlock label="Loading rule" text={DESIGNER.loading} />
      ) : ruleQuery.error ? (
        <Alert severity="error">{errorMessage(ruleQuery.error, 'The rule could not be loaded.')}</Alert>
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            gridTemplateColumns: { xs: '1fr', lg: preview ? 'minmax(0, 3fr) minmax(0, 2fr)' : '1fr' },
            alignItems: 'start',
          }}
        >
          <Card>
            <Tabs
              value={tab}
              onChange={(_, v: TabKey) => setTab(v)}
              aria-label="Rule sections"
              sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
            >
              <Tab value="basic" label="Basic Info" id="rule-tab-basic" aria-controls="rule-panel-basic" />
              <Tab
                value="conditions"
                label={`Conditions (${draft.conditions.length})`}
                id="rule-tab-conditions"
                aria-controls="rule-panel-conditions"
              />
              <Tab value="actions" label={`Actions (${draft.actions.length})`} id="rule-tab-actions" aria-controls="rule-panel-actions" />
            </Tabs>
            <CardContent>
              {serverError && (
                <Alert severity="error" sx={{ mb: 2 }}>
                  {serverError.message}
                  {serverError.details.length > 0 && (
                    <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
                      {serverError.details.map((d) => (
                        <li key={d}>{d}</li>
                      ))}
                    </Box>
                  )}
                </Alert>
              )}
              {params.error ? <Alert severity="error">{errorMessage(params.error, 'The parameters could not be loaded.')}</Alert> : null}
              <Box role="tabpanel" id="rule-panel-basic" aria-labelledby="rule-tab-basic" hidden={tab !== 'basic'}>
                <Stack spacing={2}>
                  <TextField
                    label="Rule Name"
                    required
                    value={draft.name}
                    onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                    disabled={readOnly}
                    error={!!errors.name}
                    helperText={errors.name ?? ' '}
                    slotProps={{ htmlInput: { maxLength: 200 } }}
                  />
                  <TextField
                    label="Description"
                    multiline
                    minRows={3}
                    value={draft.description}
                    onChange={(e) => setDraft({ ...draft, description: e.target.value })}
                    disabled={readOnly}
                    slotProps={{ htmlInput: { maxLength: 2000 } }}
                  />
                  <TextField
                    label="Source"
                    value={draft.source ?? ''}
                    onChange={(e) => setDraft({ ...draft, source: e.target.value })}
                    disabled={readOnly}
                    error={!!errors.source}
                    helperText={
                      errors.source ??
                      'The guideline this rule follows, shown with its finding, e.g. "ADA Standards of Care in Diabetes—2026, Section 2".'
                    }
                    slotProps={{ htmlInput: { maxLength: 500 } }}
                  />
                  <TextField
                    label="Priority"
                    type="number"
                    value={draft.priority}
                    onChange={(e) => setDraft({ ...draft, priority: e.target.value })}
                    disabled={readOnly}
                    error={!!errors.priority}
                    helperText={errors.priority ?? DESIGNER.priorityHint}
                    slotProps={{ htmlInput: { min: 0, max: 100, step: 1 } }}
                    sx={{ maxWidth: 240 }}
                  />
                </Stack>
              </Box>
              <Box role="tabpanel" id="rule-panel-conditions" aria-labelledby="rule-tab-conditions" hidden={tab !== 'conditions'}>
                <ConditionsEditor
                  conditions={draft.conditions}
                  parameters={parameters}
                  onChange={(conditions) => setDraft({ ...draft, conditions })}
                  readOnly={readOnly}
                  errors={errors}
                />
              </Box>
              <Box role="tabpanel" id="rule-panel-actions" aria-labelledby="rule-tab-actions" hidden={tab !== 'actions'}>
                <ActionsEditor
                  actions={draft.actions}
                  onChange={(actions) => setDraft({ ...draft, actions })}
                  readOnly={readOnly}
                  errors={errors}
                />
              </Box>
            </CardContent>
          </Card>
          <Stack spacing={2}>
            {preview && (
              <Suspense fallback={<Box sx={{ height: '24rem' }} role="status" aria-label="Loading preview" />}>
                <RuleFlowPreview draft={draft} parameters={allParameters} />
              </Suspense>
            )}
            {!readOnly && <AnalysisPanel {...analysis} thisRuleId={thisRuleId} ruleNames={ruleNames} />}
          </Stack>
        </Box>
      )}
      {testing && rule && <TestRuleDialog rule={rule} parameters={allParameters} onClose={() => setTesting(false)} />}
    </Box>
  );
}

export const RuleCreate = () => <RuleDesigner mode="create" />;
export const RuleEdit = () => <RuleDesigner mode="edit" />;
export const RuleView = () => <RuleDesigner mode="view" />;
