import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { useGetList } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { errorMessage } from '../../../api';
import { PageHeader } from '../../components/PageHeader';
import { useAdminQuery } from '../../components/useAdminQuery';
import { RULES } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import type { RuleSetJson } from '@cds/contracts';
import { AnalyticsTab } from './AnalyticsTab';
import { CreateRuleSetDialog } from './CreateRuleSetDialog';
import { NoTemplates } from './NoTemplates';
import { RuleSetsTab } from './RuleSetsTab';
import { UseTemplateDialog } from './UseTemplateDialog';

type TabKey = 'sets' | 'templates' | 'analytics';

export default function RuleDesignerListPage() {
  const navigate = useNavigate();
  // Plain URLSearchParams, not useSearchParams: that hook would add code to every public page
  // (react-router is one module, shared with the entry chunk).
  const selectedId = new URLSearchParams(useLocation().search).get('rule_set_id');
  const [tab, setTab] = useState<TabKey>('sets');
  const [search, setSearch] = useState('');
  const [creatingSet, setCreatingSet] = useState(false);
  const [templateDialog, setTemplateDialog] = useState<{ initial: RuleSetJson | null } | null>(null);

  const sets = useGetList<RuleSetJson>('rule-sets', {
    filter: search.trim() ? { search: search.trim() } : {},
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'created_at', order: 'DESC' },
  });
  const templates = useAdminQuery(['rule-sets', 'templates'], adminApi.ruleSetTemplates);
  const parameters = useAdminQuery(['parameters', 'all'], () => adminApi.allParameters());
  const ruleSets = sets.data ?? [];
  const selected = ruleSets.find((s) => s.id === selectedId) ?? null;

  const select = (set: RuleSetJson) => navigate(`/admin/rules?rule_set_id=${encodeURIComponent(set.id)}`, { replace: true });
  const openDesigner = (set: RuleSetJson) => navigate(`/admin/rules/create?rule_set_id=${encodeURIComponent(set.id)}`);

  // docs/product-spec.md section 4: with no rule sets, Create Rule opens the create-rule-set dialog; otherwise the
  // designer for the selected set (or the first).
  const createRule = () => {
    if (!ruleSets.length && !search.trim()) return setCreatingSet(true);
    const target = selected ?? ruleSets[0];
    if (target) openDesigner(target);
    else setCreatingSet(true);
  };

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto' }}>
      <PageHeader
        title={RULES.title}
        subtitle="Rule sets, their rules, templates and how often each rule is reached."
        actions={
          <>
            <Button variant="outlined" startIcon={<FileDownloadIcon />} onClick={() => setTemplateDialog({ initial: null })}>
              {RULES.importTemplate}
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={createRule} disabled={sets.isPending}>
              {RULES.createRule}
            </Button>
          </>
        }
      />
      <Tabs
        value={tab}
        onChange={(_, v: TabKey) => setTab(v)}
        aria-label="Rule designer views"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="sets" label={RULES.tabs.ruleSets} id="tab-sets" aria-controls="panel-sets" />
        <Tab value="templates" label={RULES.tabs.templates} id="tab-rule-templates" aria-controls="panel-rule-templates" />
        <Tab value="analytics" label={RULES.tabs.analytics} id="tab-analytics" aria-controls="panel-analytics" />
      </Tabs>
      {tab === 'sets' && (
        <Box role="tabpanel" id="panel-sets" aria-labelledby="tab-sets">
          <RuleSetsTab
            ruleSets={ruleSets}
            loading={sets.isPending}
            error={sets.error}
            search={search}
            onSearch={setSearch}
            selected={selected}
            onSelect={select}
            onAddRule={openDesigner}
            onCreateRuleSet={() => setCreatingSet(true)}
            parameters={parameters.data ?? []}
          />
        </Box>
      )}
      {tab === 'templates' && (
        <Box role="tabpanel" id="panel-rule-templates" aria-labelledby="tab-rule-templates">
          {templates.isPending && <Typography>Loading...</Typography>}
          {templates.error ? (
            <Typography color="error">{errorMessage(templates.error, 'The templates could not be loaded.')}</Typography>
          ) : null}
          {templates.data && !templates.data.length && <NoTemplates onShowRuleSets={() => setTab('sets')} />}
          {!!templates.data?.length && (
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' } }}>
              {templates.data.map((t) => (
                <Card key={t.id} component="article" aria-labelledby={`template-${t.id}`}>
                  <CardContent>
                    <Typography id={`template-${t.id}`} component="h2" variant="h5">
                      {t.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t.description || 'No description'}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                      {RULES.templateContents(t)}
                    </Typography>
                  </CardContent>
                  <CardActions sx={{ px: 2, pb: 2 }}>
                    <Button
                      size="small"
                      variant="contained"
                      onClick={() => setTemplateDialog({ initial: t })}
                      aria-label={`Use Template ${t.name}`}
                    >
                      {RULES.useTemplate}
                    </Button>
                  </CardActions>
                </Card>
              ))}
            </Box>
          )}
        </Box>
      )}
      {tab === 'analytics' && (
        <Box role="tabpanel" id="panel-analytics" aria-labelledby="tab-analytics">
          <AnalyticsTab ruleSets={ruleSets} initialId={selectedId} />
        </Box>
      )}
      <CreateRuleSetDialog
        open={creatingSet}
        onClose={() => setCreatingSet(false)}
        onCreated={(set) => {
          setCreatingSet(false);
          openDesigner(set);
        }}
      />
      {templateDialog && (
        <UseTemplateDialog
          templates={templates.data ?? []}
          initial={templateDialog.initial}
          onClose={() => setTemplateDialog(null)}
          onCreated={(set) => {
            setTemplateDialog(null);
            setTab('sets');
            select(set);
          }}
          onShowRuleSets={() => {
            setTemplateDialog(null);
            setTab('sets');
          }}
        />
      )}
    </Box>
  );
}
