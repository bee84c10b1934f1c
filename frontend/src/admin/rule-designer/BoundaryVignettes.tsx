import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { errorDetails, errorMessage } from '../../api';
import { useAdminQuery } from '../components/useAdminQuery';
import { adminApi } from '../providers/dataProvider';
import { useToast } from '../providers/useToast';
import { unitDisplay, type BoundaryVignetteJson } from '@cds/contracts';

const POSITION = { [-1]: 'one step below', 0: 'on the cut-point', 1: 'one step above' } as const;

/**
 * Generated boundary vignettes: for every cut-point the rule set uses, one recorded step below it,
 * on it and one step above, with what a PCP would get for that value (every active published set
 * included). Any of them can be saved as a rule-set test case expecting that result.
 */
export function BoundaryVignettes({ ruleSetId, ruleId }: { ruleSetId: string; ruleId?: string }) {
  const list = useAdminQuery(['rule-sets', ruleSetId, 'boundary-vignettes'], () => adminApi.boundaryVignettes(ruleSetId));
  const saved = useAdminQuery(['rule-sets', ruleSetId, 'vignettes'], () => adminApi.vignettes(ruleSetId));
  const queryClient = useQueryClient();
  const toast = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  const nameOf = (v: BoundaryVignetteJson) => `${v.display_name} ${v.value}${v.units ? ` ${unitDisplay(v.units)}` : ''}`;
  const savedNames = new Set((saved.data ?? []).map((v) => v.name));

  const save = async (v: BoundaryVignetteJson) => {
    const name = nameOf(v);
    setBusy(name);
    try {
      await adminApi.createVignette(ruleSetId, {
        name,
        answers: v.answers,
        expected_fired: v.result.fired.map((f) => f.rule_id),
        expected_primary: v.result.primary?.rule_id ?? null,
      });
      toast({ title: 'Test case saved', description: `"${name}" is checked again before every publish.`, variant: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['rule-sets', ruleSetId] });
    } catch (e) {
      toast({ title: 'Error', description: [errorMessage(e, 'The test case could not be saved.'), ...errorDetails(e)].join(' ') });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Box component="section" aria-labelledby="boundary-vignettes-title">
      <Typography id="boundary-vignettes-title" component="h3" variant="h5">
        Boundary vignettes
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Each cut-point the rule set uses, one recorded step below, on it and one step above, with the findings a PCP would get.
      </Typography>
      {list.isPending && <Typography variant="body2">Loading...</Typography>}
      {list.error ? <Typography color="error">{errorMessage(list.error, 'The boundary vignettes could not be loaded.')}</Typography> : null}
      {list.data && !list.data.length && (
        <Typography variant="body2" color="text.secondary">
          No numeric cut-points in this rule set.
        </Typography>
      )}
      {!!list.data?.length && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Boundary vignettes">
            <TableHead>
              <TableRow>
                <TableCell>Value</TableCell>
                <TableCell>Primary finding</TableCell>
                <TableCell>Rules that fire</TableCell>
                <TableCell align="right">Save</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.map((v) => {
                const name = nameOf(v);
                const mine = !ruleId || v.result.fired.some((f) => f.rule_id === ruleId);
                return (
                  <TableRow key={`${v.parameter_id}:${v.cut_point}:${v.position}`} selected={mine && !!ruleId}>
                    <TableCell>
                      <Typography variant="body2">{name}</Typography>
                      <Typography variant="caption" color="text.secondary">
                        {POSITION[v.position]} {v.cut_point}
                        {v.units ? ` ${unitDisplay(v.units)}` : ''}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      {v.result.primary ? (
                        <Chip
                          size="small"
                          color={SEVERITY_COLOR[v.result.primary.severity] ?? 'default'}
                          label={v.result.primary.rule_name}
                        />
                      ) : (
                        <Typography variant="body2" color="text.secondary">
                          No rule fires
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>
                      <Typography variant="body2">{v.result.fired.map((f) => f.rule_name).join(', ') || '—'}</Typography>
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        onClick={() => void save(v)}
                        disabled={busy !== null || savedNames.has(name)}
                        aria-label={`${savedNames.has(name) ? 'Saved' : 'Save as test case'}: ${name}`}
                      >
                        {savedNames.has(name) ? 'Saved' : 'Save as test case'}
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}

const SEVERITY_COLOR: Record<string, 'error' | 'warning' | 'info' | 'default'> = {
  critical: 'error',
  high: 'warning',
  medium: 'info',
  low: 'default',
};
