import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { listAssessments } from '../api/endpoints';
import { formatDateTime } from '../components/format';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '../components/StateViews';
import { useAsync } from '../components/useAsync';
import { CaseStatusChip, caseTitle } from './CaseList';

const ROWS_PER_PAGE = 25;

export default function CaseHistory() {
  const [page, setPage] = useState(0);
  const { data, error, loading, reload } = useAsync(
    () => listAssessments([page * ROWS_PER_PAGE, page * ROWS_PER_PAGE + ROWS_PER_PAGE - 1]),
    [page],
  );

  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, mb: 3, flexWrap: 'wrap' }}>
        <Box>
          <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
            Case History
          </Typography>
          <Typography color="text.secondary">Your assessments, newest first, with their results.</Typography>
        </Box>
        <Button component={RouterLink} to="/clinical-form" variant="contained">
          New Assessment
        </Button>
      </Box>
      <Card>
        {loading && <LoadingBlock label="Loading cases" text="Loading cases..." />}
        {!loading && error ? (
          <Box sx={{ p: 2 }}>
            <ErrorBlock title="Could not load your cases." error={error} onRetry={reload} />
          </Box>
        ) : null}
        {!loading && data && data.total === 0 && (
          <EmptyBlock title="No cases yet">Completed and in-progress assessments will appear here.</EmptyBlock>
        )}
        {!loading && data && data.total > 0 && (
          <>
            <TableContainer>
              <Table aria-label="Case history">
                <TableHead>
                  <TableRow>
                    <TableCell component="th" scope="col">Started</TableCell>
                    <TableCell component="th" scope="col">Result</TableCell>
                    <TableCell component="th" scope="col">Status</TableCell>
                    <TableCell component="th" scope="col" align="right">Answers</TableCell>
                    <TableCell component="th" scope="col">Completed</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.data.map((a) => (
                    <TableRow key={a.id} hover>
                      <TableCell>
                        <Link component={RouterLink} to={`/pcp/cases/${a.id}`} sx={{ fontWeight: 600 }}>
                          {formatDateTime(a.created_at)}
                        </Link>
                      </TableCell>
                      <TableCell>{caseTitle(a)}</TableCell>
                      <TableCell>
                        <CaseStatusChip assessment={a} />
                      </TableCell>
                      <TableCell align="right">{Object.keys(a.answers ?? {}).length}</TableCell>
                      <TableCell>{a.completed_at ? formatDateTime(a.completed_at) : '—'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <TablePagination
              component="div"
              count={data.total}
              page={page}
              onPageChange={(_, p) => setPage(p)}
              rowsPerPage={ROWS_PER_PAGE}
              rowsPerPageOptions={[ROWS_PER_PAGE]}
            />
          </>
        )}
      </Card>
    </Box>
  );
}
