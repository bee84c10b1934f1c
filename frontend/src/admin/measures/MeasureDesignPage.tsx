import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import type { Theme } from '@mui/material/styles';
import { Link as RouterLink, useParams } from 'react-router-dom';
import type { ConformanceMeasureJson, MeasureDesignJson } from '@cds/contracts';
import { errorMessage } from '../../api';
import { CasesList, CasesTable } from '../conformance/ConformancePage';
import { PageHeader } from '../components/PageHeader';
import { useAdminQuery } from '../components/useAdminQuery';
import { adminApi } from '../providers/dataProvider';
import { MeasureDraftPreview } from './MeasureDraftPreview';
import { MeasureFlow } from './MeasureFlow';
import { useMeasureDraft } from './measureDraft';
import { MeasureVersions } from './MeasureVersions';
import { findingsLabel } from './MeasureDesignsPage';
import { AnalysisSection, CriteriaSection, PopulationsSection, VersionSection } from './MeasureSections';

type TabKey = 'populations' | 'flow' | 'criteria' | 'version' | 'analysis' | 'vignettes' | 'draft' | 'versions';

function Vignettes({ d, phone }: { d: MeasureDesignJson; phone: boolean }) {
  const v = d.vignettes;
  if (!v.available)
    return (
      <Alert severity="info">
        The official test cases for {d.identifier} are not installed on this server (ECQM_DIR), so no vignette was run.
      </Alert>
    );
  const deck: ConformanceMeasureJson = {
    id: d.id,
    identifier: d.identifier,
    title: d.title,
    deck: v.deck,
    agreed: v.agreed,
    cases: v.cases,
    published_version: null,
  };
  return (
    <Stack spacing={2}>
      {d.published.source === 'local' && (
        <Alert severity="info">
          The official cases check version 1 (CMS as shipped). Version {d.published.label} is published here and differs from it: these
          results are not about the version in use.
        </Alert>
      )}
      <Alert severity={v.agreed === v.total ? 'success' : 'warning'}>
        {v.agreed} of {v.total} official cases agree: each population reads expected / computed by these rules.
      </Alert>
      <Box sx={{ overflowX: 'auto' }}>{phone ? <CasesList m={deck} /> : <CasesTable m={deck} />}</Box>
    </Stack>
  );
}

/** The tab's view. The Flow and the Draft tab read and edit one draft, kept here while the tabs change. */
function Views({ d, tab, phone, setTab }: { d: MeasureDesignJson; tab: TabKey; phone: boolean; setTab: (t: TabKey) => void }) {
  const draft = useMeasureDraft(d);
  return (
    <>
      {tab === 'populations' && <PopulationsSection d={d} />}
      {tab === 'flow' && <MeasureFlow d={d} draft={draft} onOpenDraft={() => setTab('draft')} />}
      {tab === 'criteria' && <CriteriaSection d={d} />}
      {tab === 'version' && <VersionSection d={d} phone={phone} />}
      {tab === 'analysis' && <AnalysisSection d={d} />}
      {tab === 'vignettes' && <Vignettes d={d} phone={phone} />}
      {/* A new saved draft or publish starts the impact preview again. */}
      {tab === 'draft' && (
        <MeasureDraftPreview
          key={d.draft ? `${d.draft.version}-${d.draft.revision}` : `published-${d.published.version}`}
          d={d}
          draft={draft}
        />
      )}
      {tab === 'versions' && <MeasureVersions measureId={d.id} phone={phone} />}
    </>
  );
}

/**
 * One measure in the designer (issue 21): its published version's populations as rule groups and as a flow, the record criteria
 * they read, its version, the designer's analysis, the official test cases (of the shipped version) as its
 * vignettes, its draft (edit, save, discard, impact, publish) and its versions.
 */
export default function MeasureDesignPage() {
  const { id = '' } = useParams();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [tab, setTab] = useState<TabKey>('populations');
  const q = useAdminQuery(['measure-designs', id], () => adminApi.measureDesign(id));
  const d = q.data;
  const back = (
    <Button component={RouterLink} to="/admin/measures" startIcon={<ArrowBackIcon />}>
      All measures
    </Button>
  );
  if (q.isPending) return <Skeleton height={320} />;
  if (q.error || !d)
    return (
      <Stack spacing={2} sx={{ maxWidth: 1200, mx: 'auto' }}>
        {back}
        <Alert severity="error">{errorMessage(q.error, 'This measure is unavailable right now.')}</Alert>
      </Stack>
    );
  const tabs: [TabKey, string][] = [
    ['populations', 'Populations'],
    ['flow', 'Flow'],
    ['criteria', 'Record criteria'],
    ['version', 'Version'],
    ['analysis', `Analysis${d.analysis.findings.length ? ` (${d.analysis.findings.length})` : ''}`],
    ['vignettes', 'Vignettes'],
    ['draft', d.draft ? `Draft (version ${d.draft.label})` : 'Draft and impact'],
    ['versions', 'History'],
  ];
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Box sx={{ mb: 1 }}>{back}</Box>
      <PageHeader
        title={`${d.identifier} · ${d.title}`}
        subtitle={d.score_meaning}
        actions={
          <Button variant="contained" onClick={() => setTab('draft')} sx={{ whiteSpace: 'nowrap' }}>
            {d.draft ? 'Edit draft' : 'Edit'}
          </Button>
        }
      />
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 2 }}>
        <Chip
          size="small"
          color={d.published.source === 'local' ? 'warning' : 'default'}
          label={`Published: version ${d.published.label}`}
        />
        {d.draft && <Chip size="small" color="info" label={`Draft saved: version ${d.draft.label}`} />}
        <Chip size="small" variant="outlined" label={`Version ${d.version.hash}`} sx={{ fontFamily: 'monospace', maxWidth: '100%' }} />
        <Chip
          size="small"
          color={d.version.hash === d.version.shipped_hash ? 'default' : 'warning'}
          label={
            d.version.hash === d.version.shipped_hash
              ? 'Shipped version'
              : d.published.source === 'local'
                ? 'Local version: not the measure as CMS specifies it'
                : 'Value sets changed since shipped'
          }
        />
        <Chip size="small" color={d.analysis.summary.error ? 'error' : 'default'} label={findingsLabel(d.analysis.summary)} />
        {d.vignettes.available && (
          <Chip
            size="small"
            color={d.vignettes.agreed === d.vignettes.total ? 'success' : 'error'}
            // The decks check version 1: said so beside a local version, whose own agreement nobody checked.
            label={`${d.vignettes.agreed} of ${d.vignettes.total} official cases agree${d.published.source === 'local' ? ' (version 1 as shipped)' : ''}`}
          />
        )}
      </Stack>
      <Typography variant="body2" sx={{ mb: 2 }}>
        <strong>Goal for one patient:</strong> {d.goal}.{' '}
        {d.improvement_notation === 'decrease' ? 'A lower score is better.' : 'A higher score is better.'}
      </Typography>
      <Tabs
        value={tab}
        onChange={(_, v: TabKey) => setTab(v)}
        variant="scrollable"
        scrollButtons={false}
        aria-label="Measure views"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map(([key, label]) => (
          <Tab key={key} value={key} label={label} id={`measure-tab-${key}`} aria-controls={`measure-panel-${key}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`measure-panel-${tab}`} aria-labelledby={`measure-tab-${tab}`}>
        <Views d={d} tab={tab} phone={phone} setTab={setTab} />
      </Box>
    </Box>
  );
}
