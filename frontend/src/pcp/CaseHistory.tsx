import { useState, type ReactNode } from 'react';
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
import { listAssessments, listChatSessions } from '../api/endpoints';
import { formatDateTime, patientIdText } from '../components/format';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '../components/StateViews';
import { useAsync } from '../components/useAsync';
import { stackedOnPhone } from '../components/stackedTable';
import { answeredCount } from '../assessment/outcome';
import { CASE_KIND_LABEL, CaseStatusChip, ChatStatusChip, caseTitle, chatTitle } from './CaseList';

const ROWS_PER_PAGE = 25;
const CASE_COLUMNS = ['Started', 'Status', 'Result', 'Kind', 'Answers', 'Completed'] as const;

/**
 * On a phone each case is a block of labelled lines, the whole result readable; from 600 px on, a
 * table that keeps words whole (it scrolls inside its card below 680 px rather than break them).
 */
const TABLE_SX = {
  ...stackedOnPhone(CASE_COLUMNS),
  '@media (min-width: 600px)': { minWidth: 680, '& th, & td': { overflowWrap: 'normal' }, '& th': { whiteSpace: 'nowrap' } },
};

/** Assessments and chat sessions share one set of columns, so a clinician reads both tables alike. */
function CaseTableHead() {
  return (
    <TableHead>
      <TableRow>
        {CASE_COLUMNS.map((column) => (
          <TableCell key={column} component="th" scope="col" align={column === 'Answers' ? 'right' : undefined}>
            {column}
          </TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

function CaseRow(props: {
  to: string;
  startedAt: string;
  status: ReactNode;
  title: ReactNode;
  kind: string;
  answers: number;
  completedAt?: string | null;
}) {
  return (
    <TableRow hover>
      <TableCell>
        <Link component={RouterLink} to={props.to} sx={{ fontWeight: 600 }}>
          {formatDateTime(props.startedAt)}
        </Link>
      </TableCell>
      <TableCell>{props.status}</TableCell>
      <TableCell>{props.title}</TableCell>
      <TableCell>{props.kind}</TableCell>
      <TableCell align="right">{props.answers}</TableCell>
      <TableCell>{props.completedAt ? formatDateTime(props.completedAt) : '—'}</TableCell>
    </TableRow>
  );
}

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
          <Typography color="text.secondary">Your assessments and Diagnostic Assistant chats, newest first, with their results.</Typography>
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
              <Table aria-label="Case history" sx={TABLE_SX}>
                <CaseTableHead />
                <TableBody>
                  {data.data.map((a) => (
                    <CaseRow
                      key={a.id}
                      to={`/pcp/cases/${a.id}`}
                      startedAt={a.created_at}
                      status={<CaseStatusChip assessment={a} />}
                      title={
                        a.patient ? (
                          <>
                            {caseTitle(a)}
                            <Typography variant="body2" color="text.secondary" data-testid="case-row-patient">
                              {a.patient.name ?? patientIdText(a.patient)}
                            </Typography>
                          </>
                        ) : (
                          caseTitle(a)
                        )
                      }
                      kind={CASE_KIND_LABEL.assessment}
                      answers={answeredCount(a)}
                      completedAt={a.completed_at}
                    />
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
      <ChatHistory />
    </Box>
  );
}

/** The Diagnostic Assistant's conversations, paged on their own beside the assessments. */
function ChatHistory() {
  const [page, setPage] = useState(0);
  const { data, error, loading, reload } = useAsync(
    () => listChatSessions([page * ROWS_PER_PAGE, page * ROWS_PER_PAGE + ROWS_PER_PAGE - 1]),
    [page],
  );

  return (
    <Card component="section" aria-labelledby="chat-history-title" sx={{ mt: 3 }}>
      <Box sx={{ px: 2, pt: 2 }}>
        <Typography id="chat-history-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
          Chat sessions
        </Typography>
      </Box>
      {loading && <LoadingBlock label="Loading chat sessions" text="Loading chat sessions..." />}
      {!loading && error ? (
        <Box sx={{ p: 2 }}>
          <ErrorBlock title="Could not load your chat sessions." error={error} onRetry={reload} />
        </Box>
      ) : null}
      {!loading && data && data.total === 0 && (
        <EmptyBlock title="No chat sessions yet">Conversations with the Diagnostic Assistant will appear here.</EmptyBlock>
      )}
      {!loading && data && data.total > 0 && (
        <>
          <TableContainer>
            <Table aria-label="Chat sessions" sx={TABLE_SX}>
              <CaseTableHead />
              <TableBody>
                {data.data.map((s) => (
                  <CaseRow
                    key={s.id}
                    to={`/pcp/chats/${s.id}`}
                    startedAt={s.created_at}
                    status={<ChatStatusChip session={s} />}
                    title={chatTitle(s)}
                    kind={CASE_KIND_LABEL.chat}
                    answers={s.answer_details?.length ?? s.answered_parameters.length}
                    completedAt={s.completed_at}
                  />
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
  );
}
