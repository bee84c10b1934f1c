import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import LocalHospitalIcon from '@mui/icons-material/LocalHospital';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../api';
import { ErrorBlock } from '../../../components/StateViews';
import { PageHeader } from '../../components/PageHeader';
import { SearchBox } from '../../components/SearchBox';
import { useAdminQuery } from '../../components/useAdminQuery';
import { ADMIN_TOASTS, PARAMETERS } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { ParameterJson } from '@cds/contracts';
import { ChangeHistoryTab } from './ChangeHistoryTab';
import { CreateParameterDialog } from './CreateParameterDialog';
import { CloneParameterDialog } from './CloneParameterDialog';
import { EditParameterDialog } from './EditParameterDialog';
import { PARAMETER_CATEGORIES } from '@cds/contracts';
import { CATEGORY_ICONS, categoryLabel } from './labels';
import { ParameterCard } from './ParameterCard';

type TabKey = 'parameters' | 'templates' | 'history';

/** Spec: search matches display name or name, case-insensitively; the category filter narrows. */
export function filterParameters(list: ParameterJson[], search: string, category: string): ParameterJson[] {
  const q = search.trim().toLowerCase();
  return list.filter(
    (p) =>
      (category === 'all' || p.category === category) &&
      (!q || p.display_name.toLowerCase().includes(q) || p.name.toLowerCase().includes(q)),
  );
}

function Grid({ children }: { children: React.ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' } }}>{children}</Box>
  );
}

/** docs/product-spec.md section 9: a loading skeleton of six cards. */
export function SkeletonGrid() {
  return (
    <Box role="status" aria-label="Loading parameters">
      <Grid>
        {Array.from({ length: 6 }, (_, i) => (
          <Card key={i} data-testid="skeleton-card">
            <CardContent>
              <Skeleton width="60%" height={28} />
              <Skeleton width="40%" />
              <Skeleton height={60} />
              <Skeleton width="80%" />
            </CardContent>
          </Card>
        ))}
      </Grid>
    </Box>
  );
}

function CategoryTiles({
  parameters,
  templates,
  selected,
  onSelect,
}: {
  parameters: ParameterJson[];
  templates: ParameterJson[];
  selected: string;
  onSelect: (c: string) => void;
}) {
  return (
    <Box
      component="section"
      aria-label="Categories"
      // Six across only from 1536 px: at 1366 px beside the sidebar a tile was too narrow for "Demographics".
      sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(3, 1fr)', xl: 'repeat(6, 1fr)' } }}
    >
      {PARAMETER_CATEGORIES.map((c) => {
        const Icon = CATEGORY_ICONS[c];
        const n = parameters.filter((p) => p.category === c && !p.is_template).length;
        const t = templates.filter((p) => p.category === c).length;
        const active = selected === c;
        return (
          <ButtonBase
            key={c}
            onClick={() => onSelect(active ? 'all' : c)}
            aria-pressed={active}
            data-testid={`tile-${c}`}
            sx={{
              display: 'block',
              textAlign: 'left',
              p: 1.5,
              borderRadius: 1.5,
              border: 1,
              borderColor: active ? 'primary.main' : 'divider',
              bgcolor: active ? 'primary.light' : 'background.paper',
            }}
          >
            {/* A name too long for the tile moves below its icon rather than break inside a word. */}
            <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, alignItems: 'center', color: 'primary.main' }}>
              <Icon fontSize="small" aria-hidden="true" />
              <Typography sx={{ fontWeight: 600, color: 'text.primary', overflowWrap: 'normal', wordBreak: 'normal' }}>
                {categoryLabel(c)}
              </Typography>
            </Box>
            <Typography variant="body2" color="text.secondary">
              {n} {n === 1 ? 'parameter' : 'parameters'} · {t} {t === 1 ? 'template' : 'templates'}
            </Typography>
          </ButtonBase>
        );
      })}
    </Box>
  );
}

function SeedCard({ onSeeded }: { onSeeded: () => void }) {
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const seed = async () => {
    setBusy(true);
    try {
      const r = await adminApi.seedTemplates();
      if (r.created > 0) toast(ADMIN_TOASTS.templatesSeeded(r.created));
      else toast({ title: 'Nothing to add', description: r.message, variant: 'default' });
      onSeeded();
    } catch (e) {
      console.error('Seeding failed', e);
      toast(ADMIN_TOASTS.seedingFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card component="section" aria-labelledby="seed-title">
      <CardContent sx={{ display: 'flex', gap: 2, alignItems: { md: 'center' }, flexDirection: { xs: 'column', md: 'row' } }}>
        <LocalHospitalIcon color="primary" sx={{ fontSize: 40 }} aria-hidden="true" />
        <Box sx={{ flex: 1 }}>
          <Typography id="seed-title" component="h2" variant="h4">
            Diabetes Parameter Templates
          </Typography>
          <Typography color="text.secondary">
            Add the six standard diabetes templates: HbA1c, fasting glucose, systolic and diastolic blood pressure, BMI and microalbumin,
            with their reference ranges. Templates that already exist are skipped.
          </Typography>
        </Box>
        <Button
          variant="contained"
          onClick={seed}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <AddIcon />}
        >
          {busy ? 'Creating...' : 'Create Diabetes Templates'}
        </Button>
      </CardContent>
    </Card>
  );
}

export default function ParameterPage() {
  const [tab, setTab] = useState<TabKey>('parameters');
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('all');
  const [searchKey, setSearchKey] = useState(0);
  const [creating, setCreating] = useState<{ templateId: string | null } | null>(null);
  const [editing, setEditing] = useState<ParameterJson | null>(null);
  const [cloning, setCloning] = useState<ParameterJson | null>(null);
  const queryClient = useQueryClient();
  const params = useAdminQuery(['parameters', 'all'], () => adminApi.allParameters());
  const templates = useAdminQuery(['parameters', 'templates'], adminApi.parameterTemplates);
  const all = useMemo(() => params.data ?? [], [params.data]);
  const templateList = templates.data ?? [];
  // Templates have their own tab; the Parameters tab lists only the parameters rules are written on.
  const shown = useMemo(
    () =>
      filterParameters(
        all.filter((p) => !p.is_template),
        search,
        category,
      ),
    [all, search, category],
  );
  const loading = params.isPending || templates.isPending;
  const filtered = !!search.trim() || category !== 'all';
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['parameters'] });

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto' }}>
      <PageHeader
        title={PARAMETERS.title}
        subtitle="The clinical parameters rules are written on, their templates and their history."
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating({ templateId: null })}>
            {PARAMETERS.create}
          </Button>
        }
      />
      {loading ? (
        <SkeletonGrid />
      ) : (
        <>
          <Tabs
            value={tab}
            onChange={(_, v: TabKey) => setTab(v)}
            aria-label="Parameter views"
            sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
          >
            <Tab value="parameters" label={PARAMETERS.tabs.parameters} id="tab-parameters" aria-controls="panel-parameters" />
            <Tab value="templates" label={PARAMETERS.tabs.templates} id="tab-templates" aria-controls="panel-templates" />
            <Tab value="history" label={PARAMETERS.tabs.history} id="tab-history" aria-controls="panel-history" />
          </Tabs>
          {tab === 'parameters' && (
            <Stack spacing={2} role="tabpanel" id="panel-parameters" aria-labelledby="tab-parameters">
              {params.error ? (
                <ErrorBlock title="The parameters could not be loaded." error={params.error} onRetry={() => void params.refetch()} />
              ) : null}
              <CategoryTiles parameters={all} templates={templateList} selected={category} onSelect={setCategory} />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <SearchBox key={searchKey} placeholder="Search parameters..." value={search} onSearch={setSearch} delay={150} />
                <TextField
                  select
                  size="small"
                  label="Category"
                  value={category}
                  onChange={(e) => setCategory(e.target.value)}
                  sx={{ minWidth: 220 }}
                >
                  <MenuItem value="all">All Categories</MenuItem>
                  {PARAMETER_CATEGORIES.map((c) => (
                    <MenuItem key={c} value={c}>
                      {categoryLabel(c)}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
              {shown.length === 0 ? (
                <Card>
                  <CardContent sx={{ textAlign: 'center', py: 5 }} data-testid="no-parameters">
                    <Typography variant="h4" component="p">
                      {PARAMETERS.empty}
                    </Typography>
                    {/* The next step: a narrowed list offers to widen it; an empty catalogue points to the templates. */}
                    {filtered ? (
                      <>
                        <Typography color="text.secondary" sx={{ mt: 1, mb: 2 }}>
                          {PARAMETERS.emptySearchNext}
                        </Typography>
                        <Button
                          variant="outlined"
                          onClick={() => {
                            setSearch('');
                            setCategory('all');
                            setSearchKey((k) => k + 1); // the search box keeps its own text: a new one starts empty
                          }}
                        >
                          {PARAMETERS.clearSearch}
                        </Button>
                      </>
                    ) : (
                      <>
                        <Typography color="text.secondary" sx={{ mt: 1, mb: 2, maxWidth: 560, mx: 'auto' }}>
                          {PARAMETERS.emptyNext}
                        </Typography>
                        <Button variant="contained" onClick={() => setTab('templates')}>
                          {PARAMETERS.browseTemplates}
                        </Button>
                      </>
                    )}
                  </CardContent>
                </Card>
              ) : (
                <Grid>
                  {shown.map((p) => (
                    <ParameterCard key={p.id} parameter={p} onEdit={setEditing} onClone={setCloning} />
                  ))}
                </Grid>
              )}
            </Stack>
          )}
          {tab === 'templates' && (
            <Stack spacing={2} role="tabpanel" id="panel-templates" aria-labelledby="tab-templates">
              <SeedCard onSeeded={refresh} />
              {templates.error ? (
                <Typography color="error">{errorMessage(templates.error, 'The templates could not be loaded.')}</Typography>
              ) : templateList.length === 0 ? (
                <Typography color="text.secondary">No templates yet.</Typography>
              ) : (
                <Grid>
                  {templateList.map((t) => (
                    <ParameterCard key={t.id} parameter={t} onUseTemplate={(x) => setCreating({ templateId: x.id })} onEdit={setEditing} />
                  ))}
                </Grid>
              )}
            </Stack>
          )}
          {tab === 'history' && (
            <Box role="tabpanel" id="panel-history" aria-labelledby="tab-history">
              <ChangeHistoryTab />
            </Box>
          )}
        </>
      )}
      <CreateParameterDialog
        open={!!creating}
        initialTemplateId={creating?.templateId}
        templates={templateList}
        onClose={() => setCreating(null)}
      />
      <EditParameterDialog parameter={editing} onClose={() => setEditing(null)} />
      <CloneParameterDialog parameter={cloning} onClose={() => setCloning(null)} />
    </Box>
  );
}
