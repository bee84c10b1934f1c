import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { PanelGapJson, PanelJson, PanelMeasureJson } from '@cds/contracts';
import { getPanel, getPanelTrend } from '../../api/endpoints';
import { EmptyBlock, ErrorBlock } from '../../components/StateViews';
import { useAsync } from '../../components/useAsync';
import { EvidenceDialog, StatusChip } from './EvidenceDialog';
import { filterGaps, formatDay, percent, yearPeriod, type SortKey } from './panelFormat';
import { Hba1cDistribution, ScoreTrend } from './PanelPlots';

const YEARS_BACK = 4;

function MeasureCard({ m }: { m: PanelMeasureJson }) {
  const inverse = m.improvement_notation === 'decrease';
  return (
    <Card component="section" aria-label={`${m.identifier} ${m.title}`} sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>
          {m.identifier}
          {m.local_version ? ` · local version ${m.local_version.version}` : ''}
        </Typography>
        <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
          {m.title}
        </Typography>
        {/* A published local edit is not the CMS measure as specified: the card says so, with the clinic's reason. */}
        {m.local_version && (
          <Typography variant="body2" color="warning.dark" sx={{ mb: 1 }} data-testid={`local-version-${m.identifier}`}>
            Local version {m.local_version.label} of {m.identifier}, changed from the CMS measure on{' '}
            {m.local_version.published_at.slice(0, 10)}: {m.local_version.note}
          </Typography>
        )}
        <Stack direction="row" spacing={1} alignItems="baseline" flexWrap="wrap" useFlexGap>
          <Typography sx={{ fontSize: '2rem', fontWeight: 700 }} data-testid={`score-${m.identifier}`}>
            {percent(m.score)}
          </Typography>
          <Typography color="text.secondary" data-testid={`fraction-${m.identifier}`}>
            {m.eligible ? `${m.counts.numerator} of ${m.eligible} eligible` : 'No eligible patients in this period'}
          </Typography>
        </Stack>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {m.score_meaning}
        </Typography>
        <Typography variant="body2">
          <strong>Goal:</strong> {m.goal}
          {inverse ? ' (an inverse measure: the numerator counts the patients who miss it)' : ''}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Initial population {m.counts.initial_population} · denominator {m.counts.denominator} · excluded {m.counts.denominator_exclusion}{' '}
          · numerator {m.counts.numerator}
        </Typography>
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          <strong>{m.gaps}</strong> {m.gaps === 1 ? 'patient misses' : 'patients miss'} the goal
          {m.counts.undetermined ? (
            <>
              {' · '}
              <strong>{m.counts.undetermined}</strong> not determined from the record (counted in none)
            </>
          ) : null}
        </Typography>
      </CardContent>
    </Card>
  );
}

function SkeletonPanel() {
  return (
    <Box role="status" aria-label="Loading the panel">
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, mb: 3 }}>
        {[0, 1, 2].map((i) => (
          <Card key={i}>
            <CardContent>
              <Skeleton width="40%" />
              <Skeleton width="80%" height={32} />
              <Skeleton width={96} height={48} />
              <Skeleton />
              <Skeleton />
            </CardContent>
          </Card>
        ))}
      </Box>
      <Card>
        <CardContent>
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} height={40} />
          ))}
        </CardContent>
      </Card>
    </Box>
  );
}

const COLUMNS: { key: SortKey | null; label: string }[] = [
  { key: 'name', label: 'Patient' },
  { key: 'age', label: 'Age' },
  { key: 'measure', label: 'Measure' },
  { key: null, label: 'Status' },
  { key: null, label: 'Why' },
];

function GapTable(props: {
  rows: PanelGapJson[];
  sort: SortKey;
  direction: 'asc' | 'desc';
  onSort: (k: SortKey) => void;
  onOpen: (g: PanelGapJson) => void;
}) {
  return (
    <TableContainer>
      <Table aria-label="Gap list" size="small" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((c) => (
              <TableCell key={c.label} component="th" scope="col" sortDirection={c.key === props.sort ? props.direction : false}>
                {c.key ? (
                  <TableSortLabel
                    active={c.key === props.sort}
                    direction={c.key === props.sort ? props.direction : 'asc'}
                    onClick={() => props.onSort(c.key!)}
                  >
                    {c.label}
                  </TableSortLabel>
                ) : (
                  c.label
                )}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {props.rows.map((g) => (
            <TableRow key={`${g.measure_id}/${g.patient_id}`} hover sx={{ cursor: 'pointer' }} onClick={() => props.onOpen(g)}>
              <TableCell sx={{ minWidth: 170 }}>
                <Link
                  component="button"
                  type="button"
                  onClick={(e) => {
                    e.stopPropagation();
                    props.onOpen(g);
                  }}
                  sx={{ fontWeight: 600, textAlign: 'left' }}
                >
                  {g.name}
                </Link>
                <Typography variant="body2" color="text.secondary">
                  Born {formatDay(g.birth_date)}
                </Typography>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{g.age ?? '—'}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{g.identifier}</TableCell>
              <TableCell>
                <StatusChip status={g.status} />
              </TableCell>
              <TableCell>{g.reason}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** On a phone each gap is a stacked entry: nothing scrolls sideways. */
function GapList({ rows, onOpen }: { rows: PanelGapJson[]; onOpen: (g: PanelGapJson) => void }) {
  return (
    <List aria-label="Gap list" disablePadding>
      {rows.map((g) => (
        // A list holds list items: the button goes inside one, so a screen reader counts the entries.
        <ListItem key={`${g.measure_id}/${g.patient_id}`} disablePadding divider>
          <ListItemButton onClick={() => onOpen(g)} sx={{ display: 'block', py: 1.5 }}>
            <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between">
              <Typography sx={{ fontWeight: 600, color: 'primary.main' }}>{g.name}</Typography>
              <StatusChip status={g.status} />
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {g.identifier} · {g.age !== null ? `${g.age} years` : 'age unknown'} · born {formatDay(g.birth_date)}
            </Typography>
            <Typography variant="body2">{g.reason}</Typography>
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

function Gaps({ panel }: { panel: PanelJson }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [measure, setMeasure] = useState('all');
  const [text, setText] = useState('');
  const [sort, setSort] = useState<SortKey>('name');
  const [direction, setDirection] = useState<'asc' | 'desc'>('asc');
  const [open, setOpen] = useState<PanelGapJson | null>(null);
  const rows = useMemo(() => filterGaps(panel.gaps, { measure, text, sort, direction }), [panel.gaps, measure, text, sort, direction]);
  const onSort = (k: SortKey) => {
    setDirection(k === sort && direction === 'asc' ? 'desc' : 'asc');
    setSort(k);
  };

  return (
    <Card component="section" aria-labelledby="gap-list-title">
      <CardContent>
        <Typography id="gap-list-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
          Gap list
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Eligible patients who miss a measure's goal, and patients whose place the record leaves undetermined. Open a patient to see the
          evidence and start an assessment.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <FormControl size="small" sx={{ minWidth: 220 }}>
            <InputLabel id="gap-measure-label">Measure</InputLabel>
            <Select labelId="gap-measure-label" label="Measure" value={measure} onChange={(e) => setMeasure(e.target.value)}>
              <MenuItem value="all">All measures</MenuItem>
              {panel.measures.map((m) => (
                <MenuItem key={m.id} value={m.id}>
                  {m.identifier} · {m.title}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <TextField
            size="small"
            label="Search name or reason"
            value={text}
            onChange={(e) => setText(e.target.value)}
            sx={{ flex: 1, maxWidth: { sm: 360 } }}
          />
          {phone && (
            <FormControl size="small">
              <InputLabel id="gap-sort-label">Sort by</InputLabel>
              <Select
                labelId="gap-sort-label"
                label="Sort by"
                value={`${sort}-${direction}`}
                onChange={(e) => {
                  const [k, d] = e.target.value.split('-') as [SortKey, 'asc' | 'desc'];
                  setSort(k);
                  setDirection(d);
                }}
              >
                <MenuItem value="name-asc">Name (A–Z)</MenuItem>
                <MenuItem value="age-desc">Age (oldest first)</MenuItem>
                <MenuItem value="age-asc">Age (youngest first)</MenuItem>
                <MenuItem value="measure-asc">Measure</MenuItem>
              </Select>
            </FormControl>
          )}
        </Stack>
        <Typography variant="body2" color="text.secondary" aria-live="polite" sx={{ mb: 1 }} data-testid="gap-count">
          {rows.length} of {panel.gaps.length} {panel.gaps.length === 1 ? 'entry' : 'entries'}
        </Typography>
        {panel.gaps.length === 0 ? (
          <EmptyBlock title="No gaps in this period">Every eligible patient meets each measure's goal.</EmptyBlock>
        ) : rows.length === 0 ? (
          <EmptyBlock title="No patient matches">Change the measure or the search.</EmptyBlock>
        ) : phone ? (
          <GapList rows={rows} onOpen={setOpen} />
        ) : (
          <GapTable rows={rows} sort={sort} direction={direction} onSort={onSort} onOpen={setOpen} />
        )}
      </CardContent>
      {open && (
        <EvidenceDialog patientId={open.patient_id} measureId={open.measure_id} period={panel.period} onClose={() => setOpen(null)} />
      )}
    </Card>
  );
}

/**
 * The PCP's Panel (issue 21): each quality measure's score over the stored records for a calendar
 * year, and the gap list, each row opening the patient's evidence.
 */
export default function PanelPage() {
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const period = yearPeriod(year);
  const { data, error, loading, reload } = useAsync(() => getPanel(period), [year]);
  // The trend is the last 12 months whatever the year chosen: loaded once, beside the panel, never holding it up.
  const trend = useAsync(() => getPanelTrend(), []);
  const years = Array.from({ length: YEARS_BACK + 1 }, (_, i) => thisYear - i);

  return (
    <Stack spacing={3} sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <Box>
          <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
            Panel
          </Typography>
          <Typography color="text.secondary">
            Quality measures over the patient records loaded for the clinic. Measurement period {formatDay(period.start)} –{' '}
            {formatDay(period.end)}
            {year === thisYear ? ' (the current calendar year, so far)' : ''}.
          </Typography>
        </Box>
        <FormControl size="small" sx={{ minWidth: 160 }}>
          <InputLabel id="panel-year-label">Measurement year</InputLabel>
          <Select labelId="panel-year-label" label="Measurement year" value={year} onChange={(e) => setYear(Number(e.target.value))}>
            {years.map((y) => (
              <MenuItem key={y} value={y}>
                {y}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Box>
      {loading && <SkeletonPanel />}
      {!loading && error ? <ErrorBlock title="Could not load the panel." error={error} onRetry={reload} /> : null}
      {!loading && data && data.patients === 0 && (
        <Card>
          <EmptyBlock title="No patient records are loaded yet">
            The panel is computed from patient records stored in DiabetesCDS. An administrator loads them as FHIR R4 Bundles through POST
            /api/fhir (or a bulk import); the measures appear here once records are in.
          </EmptyBlock>
        </Card>
      )}
      {!loading && data && data.patients > 0 && (
        <>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
            {data.measures.map((m) => (
              <MeasureCard key={m.id} m={m} />
            ))}
          </Box>
          <Typography variant="body2" color="text.secondary">
            {data.patients} {data.patients === 1 ? 'patient' : 'patients'} with records. Counts include only patients the record places with
            certainty; <Chip size="small" color="warning" label="Not determined" component="span" /> patients are listed below and counted
            in none.
          </Typography>
          <ScoreTrend trend={trend.data ?? null} error={trend.error} loading={trend.loading} onRetry={trend.reload} />
          <Hba1cDistribution d={data.hba1c_distribution} period={data.period} />
          <Gaps panel={data} />
        </>
      )}
    </Stack>
  );
}
