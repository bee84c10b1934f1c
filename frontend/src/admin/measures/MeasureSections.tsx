import type { ReactNode } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { CriterionResourceType } from '@cds/engine';
import type {
  MeasureCriterionJson,
  MeasureCriterionPartJson,
  MeasureDesignJson,
  MeasurePopulationJson,
  MeasureValueSetJson,
} from '@cds/contracts';
import { statusLabel, takeLabel, type EditableTake } from '../resources/parameters/criterionDraft';

/** A definition list: term and value side by side, wrapping on a phone. */
function Facts({ items, label }: { items: [string, ReactNode][]; label?: string }) {
  return (
    <Box
      component="dl"
      aria-label={label}
      sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '11rem 1fr' }, columnGap: 2, rowGap: { xs: 0, sm: 0.75 } }}
    >
      {items.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {term}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

const Or = () => (
  <Typography variant="overline" color="text.secondary" sx={{ display: 'block', textAlign: 'center', lineHeight: 2 }}>
    or
  </Typography>
);

function PopulationGroup({ p }: { p: MeasurePopulationJson }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={`population-${p.code}`} sx={{ p: 2 }}>
      <Typography id={`population-${p.code}`} component="h3" variant="h6">
        {p.label}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: p.rules.length ? 1.5 : 0 }}>
        {p.meaning}
        {!p.rules.length && ' This measure adds no rule of its own here.'}
      </Typography>
      {p.rules.map((r, i) => (
        <Box key={r.id}>
          {i > 0 && <Or />}
          <Box component="article" aria-label={r.name} sx={{ borderLeft: 3, borderColor: 'primary.light', pl: 1.5 }}>
            <Typography variant="subtitle2">{r.name}</Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {r.conditions.map((c, j) => (
                <Typography component="li" variant="body2" key={`${c.parameter_id}-${j}`}>
                  {j > 0 && (
                    <Typography component="span" variant="body2" color="text.secondary">
                      and{' '}
                    </Typography>
                  )}
                  {c.text}
                </Typography>
              ))}
            </Box>
          </Box>
        </Box>
      ))}
    </Paper>
  );
}

export function PopulationsSection({ d }: { d: MeasureDesignJson }) {
  return (
    <Stack spacing={2}>
      {d.populations.map((p) => (
        <PopulationGroup key={p.code} p={p} />
      ))}
    </Stack>
  );
}

const SYSTEMS: Record<string, string> = {
  'http://loinc.org': 'LOINC',
  'http://snomed.info/sct': 'SNOMED CT',
  'http://terminology.hl7.org/CodeSystem/observation-category': 'Category',
};
/** "http://loinc.org|97506-0" as "LOINC 97506-0". */
const codeText = (token: string) => {
  const [system, code] = token.split('|');
  return code === undefined ? token : `${SYSTEMS[system] ?? system} ${code}`;
};

const takeText = (part: MeasureCriterionPartJson) =>
  part.take === 'latest_is'
    ? 'Whether the latest one has the code'
    : (takeLabel(part.take as EditableTake, part.resource_type as CriterionResourceType) ?? part.take);

function CriterionPart({ part }: { part: MeasureCriterionPartJson }) {
  return (
    <Facts
      items={[
        ['Kind of record', part.resource_type],
        [
          'Value sets',
          part.value_sets.length
            ? part.value_sets.map((v) => (
                <Box component="span" key={v.oid} sx={{ display: 'block' }}>
                  {v.title}{' '}
                  <Typography component="span" variant="caption" color="text.secondary">
                    (OID {v.oid})
                  </Typography>
                </Box>
              ))
            : 'None',
        ],
        ...(part.codes.length ? [['Codes', part.codes.map(codeText).join(', ')] as [string, ReactNode]] : []),
        ['Statuses', part.statuses.length ? part.statuses.map(statusLabel).join(', ') : 'The default for the kind of record'],
        ['Window', part.window],
        ['What is taken', takeText(part)],
      ]}
    />
  );
}

function CriterionItem({ c, ruleNames }: { c: MeasureCriterionJson; ruleNames: Map<string, string> }) {
  return (
    <Accordion disableGutters variant="outlined">
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`criterion-${c.id}`} id={`criterion-${c.id}-title`}>
        <Box>
          <Typography variant="subtitle2">
            {c.display_name}
            {c.unit ? ` (${c.unit})` : ''}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            Used by {c.used_by.map((id) => ruleNames.get(id) ?? id).join('; ') || 'no rule'}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails id={`criterion-${c.id}`}>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {c.text}
        </Typography>
        <Stack spacing={1.5} divider={<Divider flexItem />}>
          {c.parts.map((part, i) => (
            <CriterionPart key={i} part={part} />
          ))}
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}

export function CriteriaSection({ d }: { d: MeasureDesignJson }) {
  const ruleNames = new Map(d.populations.flatMap((p) => p.rules.map((r) => [r.id, r.name] as const)));
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        What each rule reads from the stored record. {d.measurement_period.text}
      </Typography>
      {d.criteria.map((c) => (
        <CriterionItem key={c.id} c={c} ruleNames={ruleNames} />
      ))}
    </Box>
  );
}

const changeText = (s: MeasureValueSetJson) => (s.added || s.removed ? `+${s.added} −${s.removed}` : 'Same');

function ValueSetTable({ v }: { v: MeasureDesignJson['version'] }) {
  return (
    <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
      <Table size="small" aria-label="Value sets of this version">
        <TableHead>
          <TableRow>
            <TableCell>Value set</TableCell>
            <TableCell align="right">Codes loaded</TableCell>
            <TableCell align="right">Shipped</TableCell>
            <TableCell>Change</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {v.value_sets.map((s) => (
            <TableRow key={s.url}>
              <TableCell>
                <Typography variant="body2">{s.title}</Typography>
                <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  OID {s.oid}
                </Typography>
              </TableCell>
              <TableCell align="right">{s.codes}</TableCell>
              <TableCell align="right">{s.shipped_codes ?? '—'}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {s.added || s.removed ? <Chip size="small" color="warning" label={changeText(s)} /> : 'Same'}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** On a phone: one block per value set. */
function ValueSetList({ v }: { v: MeasureDesignJson['version'] }) {
  return (
    <Stack component="ul" aria-label="Value sets of this version" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {v.value_sets.map((s) => (
        <Box component="li" key={s.url} sx={{ py: 1, borderTop: 1, borderColor: 'divider' }}>
          <Typography variant="body2">{s.title}</Typography>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
            OID {s.oid}
          </Typography>
          <Typography variant="body2">
            {s.codes} codes loaded, {s.shipped_codes ?? 'none'} shipped: {changeText(s)}
          </Typography>
        </Box>
      ))}
    </Stack>
  );
}

export function VersionSection({ d, phone }: { d: MeasureDesignJson; phone: boolean }) {
  const v = d.version;
  const shipped = v.hash === v.shipped_hash;
  return (
    <Stack spacing={2}>
      <Facts
        label="Version"
        items={[
          [
            'Current version',
            <Box component="code" key="h">
              {v.hash}
            </Box>,
          ],
          [
            'Shipped version',
            <Box component="code" key="s">
              {v.shipped_hash}
            </Box>,
          ],
          ['Published', `Version ${d.published.label}`],
          ['Source', d.source],
        ]}
      />
      <Alert severity={shipped ? 'success' : 'warning'}>
        {shipped ? (
          'This is the shipped version: the rules and the value sets are the ones the product ships with.'
        ) : (
          <>
            {d.published.source === 'local'
              ? `Version ${d.published.label} is published: it differs from the measure as CMS specifies it, so results computed under the shipped version are no longer current:`
              : 'Value sets loaded since differ from the shipped ones, so results computed under the shipped version are no longer current:'}
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {v.changes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </Box>
          </>
        )}
      </Alert>
      {phone ? <ValueSetList v={v} /> : <ValueSetTable v={v} />}
    </Stack>
  );
}

const SEVERITY = { error: 'error', warning: 'warning', info: 'info' } as const;

export function AnalysisSection({ d }: { d: MeasureDesignJson }) {
  const { findings } = d.analysis;
  if (!findings.length)
    return (
      <Alert severity="success">
        The designer&apos;s analysis finds nothing in any population: no contradictory, duplicate or shadowed rule, no unknown parameter or
        operator, no gap or overlap between cut-points.
      </Alert>
    );
  return (
    <Stack spacing={1} component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label="Analysis findings">
      {findings.map((f, i) => (
        <Alert component="li" key={`${f.code}-${i}`} severity={SEVERITY[f.severity]}>
          <strong>{f.population}:</strong> {f.message}
        </Alert>
      ))}
    </Stack>
  );
}
