import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { ApiError } from '../api';
import { getAssessment } from '../api/endpoints';
import type { Assessment } from '../api/types';
import { RecommendationDetails } from '../assessment/RecommendationDetails';
import { NO_RECOMMENDATION } from '../messages';
import { formatDateTime, formatValue } from '../components/format';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '../components/StateViews';
import { useAsync } from '../components/useAsync';
import { CaseStatusChip } from './CaseList';

/** Best available name for an answered parameter: the basis, the current question, else a short id. */
export function parameterLabel(a: Assessment, parameterId: string): string {
  const fromBasis = a.recommendation?.basis?.find((b) => b.parameter_id === parameterId)?.parameter_name;
  if (fromBasis) return fromBasis;
  if (a.current_question?.parameter_id === parameterId) return a.current_question.display_name;
  return `Parameter …${parameterId.slice(-8)}`;
}

export default function CaseDetail() {
  const { id = '' } = useParams();
  const { data, error, loading, reload } = useAsync(() => getAssessment(id), [id]);
  const notFound = error instanceof ApiError && error.status === 404;

  const order = data ? (data.completed_parameter_ids?.length ? data.completed_parameter_ids : Object.keys(data.answers ?? {})) : [];

  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto' }}>
      <Button component={RouterLink} to="/pcp/cases" startIcon={<ArrowBackIcon />} sx={{ mb: 2 }}>
        Back to Case History
      </Button>
      <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 2 }}>
        Case details
      </Typography>
      {loading && <LoadingBlock label="Loading case" text="Loading case..." />}
      {!loading && notFound && <EmptyBlock title="Case not found">This case does not exist or is not one of yours.</EmptyBlock>}
      {!loading && error && !notFound ? <ErrorBlock title="Could not load this case." error={error} onRetry={reload} /> : null}
      {!loading && data && (
        <Stack spacing={3}>
          <Card>
            <CardContent sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', alignItems: 'center' }}>
              <Box>
                <Typography variant="body2" color="text.secondary">Started</Typography>
                <Typography sx={{ fontWeight: 600 }}>{formatDateTime(data.created_at)}</Typography>
              </Box>
              <Box>
                <Typography variant="body2" color="text.secondary">Completed</Typography>
                <Typography sx={{ fontWeight: 600 }}>{data.completed_at ? formatDateTime(data.completed_at) : 'Not completed'}</Typography>
              </Box>
              <Box>
                <Typography variant="body2" color="text.secondary">Status</Typography>
                <CaseStatusChip assessment={data} />
              </Box>
              {data.rule_set_versions && data.rule_set_versions.length > 0 && (
                <Box>
                  <Typography variant="body2" color="text.secondary">Rule sets evaluated</Typography>
                  <Typography>{data.rule_set_versions.map((r) => `${r.name} v${r.version}`).join(', ')}</Typography>
                </Box>
              )}
            </CardContent>
          </Card>

          <Card component="section" aria-labelledby="case-result-title">
            <CardContent>
              <Typography id="case-result-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
                Result
              </Typography>
              {data.recommendation ? (
                <RecommendationDetails recommendation={data.recommendation} headingLevel={3} />
              ) : data.is_completed ? (
                <>
                  <Typography variant="h3" sx={{ fontSize: '1.1rem', mb: 1 }}>{NO_RECOMMENDATION.title}</Typography>
                  <Typography color="text.secondary">{NO_RECOMMENDATION.body}</Typography>
                </>
              ) : (
                <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
                  <Typography color="text.secondary">This assessment was not completed.</Typography>
                  <Button component={RouterLink} to="/clinical-form" state={{ resume: data.id }} variant="outlined">
                    Continue assessment
                  </Button>
                </Stack>
              )}
            </CardContent>
          </Card>

          <Card component="section" aria-labelledby="case-answers-title">
            <CardContent>
              <Typography id="case-answers-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
                Answers
              </Typography>
              {order.length === 0 ? (
                <Typography color="text.secondary">No answers were recorded.</Typography>
              ) : (
                <Table size="small" aria-label="Answers given">
                  <TableHead>
                    <TableRow>
                      <TableCell component="th" scope="col">#</TableCell>
                      <TableCell component="th" scope="col">Parameter</TableCell>
                      <TableCell component="th" scope="col">Answer</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {order.map((pid, i) => (
                      <TableRow key={pid}>
                        <TableCell>{i + 1}</TableCell>
                        <TableCell component="th" scope="row">{parameterLabel(data, pid)}</TableCell>
                        <TableCell sx={{ fontWeight: 600 }}>{formatValue(data.answers?.[pid])}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </CardContent>
          </Card>
        </Stack>
      )}
    </Box>
  );
}
