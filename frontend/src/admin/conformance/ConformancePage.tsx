import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { Theme } from '@mui/material/styles';
import type { ConformanceCaseJson, ConformanceMeasureJson } from '@cds/contracts';
import { errorMessage } from '../../api';
import { PageHeader } from '../components/PageHeader';
import { useAdminQuery } from '../components/useAdminQuery';
import { adminApi } from '../providers/dataProvider';

/** The populations a deck case states, in the order a measure is read. */
export const POPULATIONS: { code: string; label: string }[] = [
  { code: 'initial-population', label: 'Initial population' },
  { code: 'denominator', label: 'Denominator' },
  { code: 'denominator-exclusion', label: 'Exclusion' },
  { code: 'numerator', label: 'Numerator' },
];

const yesNo = (v: number | undefined) => (v === 1 ? 'Yes' : 'No');

/** "Yes / Yes": the deck's answer, then the product's; a disagreement in red, in words too. */
function PopulationCell({ c, code }: { c: ConformanceCaseJson; code: string }) {
  const expected = c.expected[code];
  const actual = c.actual[code];
  const differs = expected !== actual;
  return (
    <Typography
      variant="body2"
      component="span"
      color={differs ? 'error' : 'text.primary'}
      sx={{ fontWeight: differs ? 700 : 400, whiteSpace: 'nowrap' }}
    >
      {yesNo(expected)} / {yesNo(actual)}
      {differs && ' ≠'}
    </Typography>
  );
}

const resultChip = (c: ConformanceCaseJson) =>
  c.agrees ? <Chip size="small" color="success" label="Agrees" /> : <Chip size="small" color="error" label="Disagrees" />;

export function CasesTable({ m }: { m: ConformanceMeasureJson }) {
  return (
    <Table size="small" aria-label={`${m.identifier} cases`}>
      <TableHead>
        <TableRow>
          <TableCell>Case</TableCell>
          {POPULATIONS.map((p) => (
            <TableCell key={p.code} sx={{ whiteSpace: 'nowrap' }}>
              {p.label}
            </TableCell>
          ))}
          <TableCell>Result</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {m.cases.map((c) => (
          <TableRow key={c.file} hover>
            <TableCell sx={{ maxWidth: 420 }}>
              <Typography variant="body2">{c.description}</Typography>
              <Typography variant="caption" color="text.secondary">
                {c.period.start} to {c.period.end}
              </Typography>
            </TableCell>
            {POPULATIONS.map((p) => (
              <TableCell key={p.code}>
                <PopulationCell c={c} code={p.code} />
              </TableCell>
            ))}
            <TableCell>{resultChip(c)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** On a phone: one block per case, its four populations as a two-column list. */
export function CasesList({ m }: { m: ConformanceMeasureJson }) {
  return (
    <Stack component="ul" aria-label={`${m.identifier} cases`} sx={{ listStyle: 'none', m: 0, p: 0 }} spacing={0}>
      {m.cases.map((c) => (
        <Stack component="li" key={c.file} spacing={1} sx={{ py: 1.5, borderTop: 1, borderColor: 'divider' }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
            <Typography variant="body2">{c.description}</Typography>
            {resultChip(c)}
          </Stack>
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: '1fr auto', columnGap: 2, rowGap: 0.5 }}>
            {POPULATIONS.map((p) => (
              <Box key={p.code} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {p.label}
                </Typography>
                <Box component="dd" sx={{ m: 0 }}>
                  <PopulationCell c={c} code={p.code} />
                </Box>
              </Box>
            ))}
          </Box>
        </Stack>
      ))}
    </Stack>
  );
}

function MeasureDeck({ m, phone }: { m: ConformanceMeasureJson; phone: boolean }) {
  const all = m.cases.length;
  const agreesAll = m.agreed === all;
  return (
    <Accordion defaultExpanded={!agreesAll} disableGutters>
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`deck-${m.identifier}`} id={`deck-${m.identifier}-title`}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, width: '100%', pr: 1 }}>
          <Typography component="h2" variant="h6" sx={{ flex: 1 }}>
            {m.identifier} · {m.title}
          </Typography>
          {m.deck ? (
            <Chip
              size="small"
              sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
              color={agreesAll ? 'success' : 'error'}
              label={`${m.agreed} of ${all} agree`}
            />
          ) : (
            <Chip size="small" sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }} label="No deck for this measure" />
          )}
        </Stack>
      </AccordionSummary>
      <AccordionDetails id={`deck-${m.identifier}`}>
        {/* The decks are about the measure as CMS specifies it; a published local edit is not what they check. */}
        {m.published_version && (
          <Alert severity="info" sx={{ mb: 1 }}>
            These cases check version 1 ({m.identifier} as CMS specifies it). Version {m.published_version.label}, published{' '}
            {m.published_version.published_at.slice(0, 10)}, is in use and differs from it: {m.published_version.note}
          </Alert>
        )}
        {m.deck ? (
          phone ? (
            <CasesList m={m} />
          ) : (
            <CasesTable m={m} />
          )
        ) : (
          <Typography color="text.secondary">The decks hold no case for {m.identifier}.</Typography>
        )}
      </AccordionDetails>
    </Accordion>
  );
}

/**
 * Conformance (issue 21): the official CMS test decks run through the product's own measure rules, each case's
 * populations as the deck expects them and as the product computed them.
 */
export default function ConformancePage() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const report = useAdminQuery(['measure-conformance'], adminApi.conformance);
  const r = report.data;
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <PageHeader
        title="Measure conformance"
        subtitle="The official CMS test cases (eCQM 2024 decks) evaluated by this product's own measure rules. Each population reads expected / computed."
      />
      {report.isPending ? (
        <Skeleton height={160} />
      ) : report.error ? (
        <Alert severity="error">{errorMessage(report.error, 'The conformance report is unavailable right now.')}</Alert>
      ) : !r?.available ? (
        <Alert severity="info">
          The conformance decks are not installed on this server, so no case was run. Set ECQM_DIR to the folder of the eCQM 2024 decks
          (looked in {r?.directory}).
        </Alert>
      ) : (
        <Stack spacing={2}>
          <Alert severity={r.agreed === r.total ? 'success' : 'warning'}>
            {r.agreed} of {r.total} official cases agree with the expected populations.
          </Alert>
          {r.measures.map((m) => (
            <MeasureDeck key={m.id} m={m} phone={phone} />
          ))}
        </Stack>
      )}
    </Box>
  );
}
