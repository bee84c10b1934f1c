import { Fragment, lazy, Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type {
  ImpactCauseKind,
  ImpactExampleJson,
  ImpactFindingChangeJson,
  ImpactGroupJson,
  ImpactPreviewJson,
  ImpactRuleRef,
  ImpactTransitionJson,
} from '@cds/contracts';

// The chart library loads with the publish dialog (which preloads it while the preview computes), not the console.
const loadTransitionsChart = () => import('../../components/charts/TransitionsChart');
const TransitionsChart = lazy(loadTransitionsChart);

/** Starts loading the chart while the preview is computed, so the preview is not held back by it. */
export function preloadTransitionsChart(): void {
  void loadTransitionsChart();
}

const CAUSE: Record<ImpactCauseKind, string> = {
  added: 'added',
  removed: 'removed',
  edited: 'edited',
  parameters: 'a parameter changed',
};

const n = (x: number) => x.toLocaleString('en-US');

/** A rule of another rule set is named with its set: two sets may both have a "Prediabetes". */
function RuleName({ rule, ruleSetName }: { rule: ImpactRuleRef | null; ruleSetName: string }) {
  if (!rule) return <em>No finding</em>;
  return (
    <>
      {rule.rule_name}
      {rule.rule_set_name && rule.rule_set_name !== ruleSetName && (
        <Typography component="span" variant="caption" color="text.secondary">
          {' '}
          ({rule.rule_set_name})
        </Typography>
      )}
    </>
  );
}

function Cause({ t, ruleSetName }: { t: ImpactTransitionJson; ruleSetName: string }) {
  return (
    <>
      <RuleName rule={t.cause} ruleSetName={ruleSetName} />{' '}
      <Typography component="span" variant="caption" color="text.secondary">
        ({CAUSE[t.cause_kind]})
      </Typography>
    </>
  );
}

function ExamplesRow({ id, examples }: { id: string; examples: ImpactExampleJson[] }) {
  return (
    <TableRow id={id}>
      <TableCell colSpan={4} sx={{ bgcolor: 'action.hover' }}>
        <Box component="ul" aria-label="Example patients" sx={{ m: 0, pl: 2.5 }}>
          {examples.map((e, i) => (
            <li key={i}>
              <Typography variant="body2">
                <strong>{e.label}</strong>:{' '}
                {e.values.length
                  ? e.values.map((v, j) => (
                      <Fragment key={j}>
                        {j > 0 && ', '}
                        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                          {v.parameter} {v.value}
                        </Box>
                      </Fragment>
                    ))
                  : 'no answers'}
              </Typography>
            </li>
          ))}
        </Box>
      </TableCell>
    </TableRow>
  );
}

function ExamplesButton({ open, onClick, id, count }: { open: boolean; onClick: () => void; id: string; count: number }) {
  return (
    <Button size="small" onClick={onClick} aria-expanded={open} aria-controls={id} disabled={!count} sx={{ whiteSpace: 'nowrap' }}>
      {open ? 'Hide' : `Examples (${count})`}
    </Button>
  );
}

/** On phones the count and the responsible rule go under the transition instead of in their own columns. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } } as const;

function TransitionRow({ transition: t, id, ruleSetName }: { transition: ImpactTransitionJson; id: string; ruleSetName: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Fragment>
      <TableRow>
        <TableCell>
          <RuleName rule={t.from} ruleSetName={ruleSetName} /> → <RuleName rule={t.to} ruleSetName={ruleSetName} />
          <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
            {n(t.count)} patient{t.count === 1 ? '' : 's'}; rule responsible: <Cause t={t} ruleSetName={ruleSetName} />
          </Typography>
        </TableCell>
        <TableCell align="right" sx={WIDE_ONLY}>
          {n(t.count)}
        </TableCell>
        <TableCell sx={WIDE_ONLY}>
          <Cause t={t} ruleSetName={ruleSetName} />
        </TableCell>
        <TableCell>
          <ExamplesButton open={open} onClick={() => setOpen((o) => !o)} id={id} count={t.examples.length} />
        </TableCell>
      </TableRow>
      {open && <ExamplesRow id={id} examples={t.examples} />}
    </Fragment>
  );
}

/**
 * A finding gained or lost, whatever its rank (issue 20): a diagnosis lost behind a crisis that
 * stays primary shows here, with how many of those patients keep their primary recommendation.
 */
function FindingChangeRow({ change: c, id, ruleSetName }: { change: ImpactFindingChangeJson; id: string; ruleSetName: string }) {
  const [open, setOpen] = useState(false);
  const patients = `${n(c.count)} patient${c.count === 1 ? '' : 's'}`;
  const hidden = c.same_primary ? `, ${n(c.same_primary)} with the same primary recommendation` : '';
  return (
    <Fragment>
      <TableRow data-change={c.change}>
        <TableCell>
          <RuleName rule={c.rule} ruleSetName={ruleSetName} />{' '}
          <Typography component="span" variant="caption" color="text.secondary">
            ({CAUSE[c.cause_kind]})
          </Typography>
        </TableCell>
        <TableCell>
          <strong>{c.change === 'lost' ? 'Lost' : 'Gained'}</strong> by {patients}
          {hidden}
        </TableCell>
        <TableCell>
          <ExamplesButton open={open} onClick={() => setOpen((o) => !o)} id={id} count={c.examples.length} />
        </TableCell>
      </TableRow>
      {open && <ExamplesRow id={id} examples={c.examples} />}
    </Fragment>
  );
}

function FindingChanges({ group, ruleSetName }: { group: ImpactGroupJson; ruleSetName: string }) {
  const changes = group.finding_changes ?? [];
  const more = group.more_finding_changes ?? 0;
  if (!changes.length) return null;
  return (
    <>
      <TableContainer sx={{ mt: 0.5, overflowX: 'auto' }}>
        <Table size="small" aria-label={`${group.label}: findings gained or lost`} sx={{ '& td, & th': { px: { xs: 0.75, sm: 2 } } }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: { sm: '40%' } }}>Finding (rule change)</TableCell>
              <TableCell>Gained or lost, whatever its rank</TableCell>
              <TableCell>
                <span className="visually-hidden">Examples</span>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {changes.map((c, i) => (
              <FindingChangeRow key={i} change={c} id={`impact-${group.key}-finding-${i}`} ruleSetName={ruleSetName} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {more > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          … and {n(more)} smaller finding change{more === 1 ? '' : 's'} not listed.
        </Typography>
      )}
    </>
  );
}

function GroupView({ group, ruleSetName }: { group: ImpactGroupJson; ruleSetName: string }) {
  const findings = group.findings_changed;
  const summary = group.patients
    ? `${n(group.changed)} of ${n(group.patients)} change primary recommendation` +
      (findings === undefined ? '' : `; ${n(findings)} gain or lose a finding`)
    : 'none to compare';
  return (
    <Box component="section" aria-label={group.label} sx={{ mb: 1.5 }}>
      <Typography component="h4" variant="subtitle2">
        <Chip size="small" color={group.changed || findings ? 'warning' : 'default'} label={n(group.changed)} sx={{ mr: 1 }} />
        {group.label}: {summary}
      </Typography>
      {group.transitions.length > 0 && (
        <Suspense fallback={<Box sx={{ height: group.transitions.length * 46 + 22 }} />}>
          <TransitionsChart
            label={`${group.label}: patients moving between primary recommendations, as bars (the table below lists them)`}
            bars={group.transitions.map((t) => ({
              label: `${t.from?.rule_name ?? 'No finding'} → ${t.to?.rule_name ?? 'No finding'}`,
              count: t.count,
            }))}
          />
        </Suspense>
      )}
      {group.transitions.length > 0 && (
        <TableContainer sx={{ mt: 0.5, overflowX: 'auto' }}>
          <Table size="small" aria-label={`${group.label}: transitions`} sx={{ '& td, & th': { px: { xs: 0.75, sm: 2 } } }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: { sm: '40%' } }}>From → to</TableCell>
                <TableCell align="right" sx={WIDE_ONLY}>
                  Patients
                </TableCell>
                <TableCell sx={WIDE_ONLY}>Rule responsible</TableCell>
                <TableCell>
                  <span className="visually-hidden">Examples</span>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {group.transitions.map((t, i) => (
                <TransitionRow key={i} transition={t} id={`impact-${group.key}-${i}`} ruleSetName={ruleSetName} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {group.more_transitions > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          … and {n(group.more_transitions)} smaller transition{group.more_transitions === 1 ? '' : 's'} not listed.
        </Typography>
      )}
      <FindingChanges group={group} ruleSetName={ruleSetName} />
    </Box>
  );
}

/**
 * How publishing reclassifies the reference populations: per group, how many patients get another
 * top finding, from which to which, the rule responsible, and a few example patients on demand;
 * then every finding gained or lost, whatever its rank.
 */
export function ImpactPreviewView({ preview, ruleSetName }: { preview: ImpactPreviewJson; ruleSetName: string }) {
  return (
    <Box component="section" aria-label="Impact preview" data-testid="impact-preview" sx={{ mt: 2 }}>
      <Typography component="h3" variant="h6">
        Impact on patients
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {preview.base_version === null ? 'Compared with no published version' : `Compared with version ${preview.base_version}`}, together
        with every active published rule set.
      </Typography>
      {preview.groups.map((g) => (
        <GroupView key={g.key} group={g} ruleSetName={ruleSetName} />
      ))}
    </Box>
  );
}
