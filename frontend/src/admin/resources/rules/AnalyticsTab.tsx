import { lazy, Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../../api';
import { useAdminQuery } from '../../components/useAdminQuery';
import { adminApi } from '../../providers/dataProvider';
import type { AnalyticsPeriod, RuleSetJson } from '@cds/contracts';

// The chart library loads with the Analytics tab only.
const PeriodTrendChart = lazy(() => import('../../components/charts/PeriodTrendChart'));

/**
 * The console's main area lets long text break anywhere; inside a table that splits words mid-word
 * ("Obes / ity") on a phone. Table cells break between words only, with narrower padding on a phone, and a
 * table still too wide scrolls sideways.
 */
const WHOLE_WORDS = { '& th, & td': { overflowWrap: 'normal', px: { xs: 1, sm: 2 } } } as const;
/** Periods are UTC days; show them as the same calendar day everywhere. */
const utcDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

export const percent = (rate: number | null | undefined) =>
  rate === null || rate === undefined ? '—' : `${Math.round(rate * 1000) / 10}%`;

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card component="section" aria-label={label}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>
          {label}
        </Typography>
        <Typography sx={{ fontSize: '1.75rem', fontWeight: 700 }} data-testid={`figure-${label}`}>
          {value}
        </Typography>
        {hint && (
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

/** Real hit rates of each published rule and the no-match rate, from the stored assessments. */
export function AnalyticsTab({ ruleSets, initialId }: { ruleSets: RuleSetJson[]; initialId: string | null }) {
  const published = ruleSets.filter((s) => s.is_published);
  const [setId, setSetId] = useState<string>(() =>
    initialId && published.some((s) => s.id === initialId) ? initialId : (published[0]?.id ?? ''),
  );
  const [period, setPeriod] = useState<AnalyticsPeriod>('month');
  const data = useAdminQuery(['rule-sets', setId, 'analytics', period], () => adminApi.analytics(setId, period), { enabled: !!setId });

  if (!published.length) {
    return (
      <Typography color="text.secondary">
        No published rule sets yet. Analytics start once a rule set is published and used in assessments.
      </Typography>
    );
  }
  const a = data.data;
  const periods = a?.periods.filter((p) => p.completed > 0) ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField select size="small" label="Rule set" value={setId} onChange={(e) => setSetId(e.target.value)} sx={{ minWidth: 260 }}>
          {published.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.name} (v{s.version})
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Group by"
          value={period}
          onChange={(e) => setPeriod(e.target.value as AnalyticsPeriod)}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="day">Day</MenuItem>
          <MenuItem value="week">Week</MenuItem>
          <MenuItem value="month">Month</MenuItem>
        </TextField>
      </Stack>
      {data.isPending && <LinearProgress aria-label="Loading analytics" />}
      {data.error ? <Typography color="error">{errorMessage(data.error, 'The analytics could not be loaded.')}</Typography> : null}
      {a && (
        <>
          <Typography variant="body2" color="text.secondary">
            {utcDate(a.from)} to {utcDate(a.to)} · completed assessments that evaluated this rule set
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' } }}>
            <Figure label="Assessments" value={String(a.totals.completed)} hint="Completed, evaluated this set" />
            <Figure
              label="Matched here"
              value={String(a.totals.matched)}
              hint={`${percent(a.totals.completed ? a.totals.matched / a.totals.completed : null)} of assessments`}
            />
            <Figure label="Matched elsewhere" value={String(a.totals.matched_by_other_sets)} hint="By another rule set" />
            <Figure label="No-match rate" value={percent(a.totals.no_match_rate)} hint={`${a.totals.no_match} without a recommendation`} />
          </Box>
          <Card component="section" aria-labelledby="hit-rates-title">
            <CardContent>
              <Typography id="hit-rates-title" component="h2" variant="h4" sx={{ mb: 1 }}>
                Hit rate by rule
              </Typography>
              {!a.totals.rules.length ? (
                <Typography color="text.secondary">No rules published yet.</Typography>
              ) : (
                <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Hit rate by rule, scrollable">
                  <Table size="small" aria-labelledby="hit-rates-title" sx={WHOLE_WORDS}>
                    <TableHead>
                      <TableRow>
                        <TableCell>Rule</TableCell>
                        <TableCell align="right">Matches</TableCell>
                        <TableCell>Hit rate</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {a.totals.rules.map((r) => (
                        <TableRow key={r.rule_id}>
                          <TableCell>{r.rule_name}</TableCell>
                          <TableCell align="right">{r.matches}</TableCell>
                          <TableCell sx={{ minWidth: { xs: 112, sm: 200 } }}>
                            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                              <LinearProgress
                                variant="determinate"
                                value={(r.share ?? 0) * 100}
                                sx={{ flex: 1, height: 8, borderRadius: 4 }}
                                aria-hidden="true"
                              />
                              <span>{percent(r.share)}</span>
                            </Box>
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              )}
            </CardContent>
          </Card>
          <Card component="section" aria-labelledby="ehr-feedback-title">
            <CardContent>
              <Typography id="ehr-feedback-title" component="h2" variant="h4" sx={{ mb: 1 }}>
                EHR feedback by rule version
              </Typography>
              {!a.cds_feedback?.length ? (
                <Typography color="text.secondary">No CDS Hooks cards from this rule set in this time.</Typography>
              ) : (
                // Seven columns do not fit a phone: the table scrolls sideways, the rule name keeps a readable width.
                <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="EHR feedback by rule version, scrollable">
                  <Table
                    size="small"
                    aria-labelledby="ehr-feedback-title"
                    sx={{
                      ...WHOLE_WORDS,
                      '& th:not(:first-of-type), & td:not(:first-of-type)': { whiteSpace: 'nowrap' },
                      '& td:first-of-type': { minWidth: 160 },
                    }}
                  >
                    <TableHead>
                      <TableRow>
                        <TableCell>Rule</TableCell>
                        <TableCell align="right">Version</TableCell>
                        <TableCell align="right">Cards</TableCell>
                        <TableCell align="right">Accepted</TableCell>
                        <TableCell align="right">Overridden</TableCell>
                        <TableCell align="right">Acceptance rate</TableCell>
                        <TableCell align="right">Override rate</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {a.cds_feedback.map((f) => (
                        <TableRow key={`${f.rule_id}:${f.rule_version}`}>
                          <TableCell>{f.rule_name}</TableCell>
                          <TableCell align="right">v{f.rule_version}</TableCell>
                          <TableCell align="right">{f.cards}</TableCell>
                          <TableCell align="right">{f.accepted}</TableCell>
                          <TableCell align="right">{f.overridden}</TableCell>
                          <TableCell align="right">{percent(f.acceptance_rate)}</TableCell>
                          <TableCell align="right">{percent(f.override_rate)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              )}
            </CardContent>
          </Card>
          <Card component="section" aria-labelledby="periods-title">
            <CardContent>
              <Typography id="periods-title" component="h2" variant="h4" sx={{ mb: 1 }}>
                By {period}
              </Typography>
              {!periods.length ? (
                <Typography color="text.secondary">No completed assessments used this rule set in this time.</Typography>
              ) : (
                <>
                  <Suspense fallback={<Box sx={{ height: 260, mb: 2 }} />}>
                    <PeriodTrendChart
                      label={`Assessments and matches by ${period}, as bars (the table below lists every figure)`}
                      periods={periods.map((p) => ({ label: utcDate(p.start), completed: p.completed, matched: p.matched }))}
                    />
                  </Suspense>
                  <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`By ${period}, scrollable`}>
                    <Table size="small" aria-labelledby="periods-title" sx={WHOLE_WORDS}>
                      <TableHead>
                        <TableRow>
                          <TableCell>Starting</TableCell>
                          <TableCell align="right">Assessments</TableCell>
                          <TableCell align="right">Matched here</TableCell>
                          <TableCell align="right">No-match rate</TableCell>
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {periods.map((p) => (
                          <TableRow key={p.start}>
                            <TableCell>{utcDate(p.start)}</TableCell>
                            <TableCell align="right">{p.completed}</TableCell>
                            <TableCell align="right">{p.matched}</TableCell>
                            <TableCell align="right">{percent(p.no_match_rate)}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </Box>
                </>
              )}
            </CardContent>
          </Card>
        </>
      )}
    </Stack>
  );
}
