import { Fragment, useState } from 'react';
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
import type { ImpactCauseKind, ImpactGroupJson, ImpactPreviewJson, ImpactRuleRef, ImpactTransitionJson } from '@cds/contracts';

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
          <Button
            size="small"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            aria-controls={id}
            disabled={!t.examples.length}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {open ? 'Hide' : `Examples (${t.examples.length})`}
          </Button>
        </TableCell>
      </TableRow>
      {open && (
        <TableRow id={id}>
          <TableCell colSpan={4} sx={{ bgcolor: 'action.hover' }}>
            <Box component="ul" aria-label="Example patients" sx={{ m: 0, pl: 2.5 }}>
              {t.examples.map((e, i) => (
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
      )}
    </Fragment>
  );
}

function GroupView({ group, ruleSetName }: { group: ImpactGroupJson; ruleSetName: string }) {
  const summary = group.patients ? `${n(group.changed)} of ${n(group.patients)} change primary recommendation` : 'none to compare';
  return (
    <Box component="section" aria-label={group.label} sx={{ mb: 1.5 }}>
      <Typography component="h4" variant="subtitle2">
        <Chip size="small" color={group.changed ? 'warning' : 'default'} label={n(group.changed)} sx={{ mr: 1 }} />
        {group.label}: {summary}
      </Typography>
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
    </Box>
  );
}

/**
 * How publishing reclassifies the reference populations: per group, how many patients get another
 * top finding, from which to which, the rule responsible, and a few example patients on demand.
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
