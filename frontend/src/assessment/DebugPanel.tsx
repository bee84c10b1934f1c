import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AnswerDetailJson } from '@cds/contracts';
import type { DebugLogEntryJson as DebugLogEntry } from '@cds/contracts';
import { answerProvenance, answerText } from '../components/findings/clinicalFormat';
import { formatTime } from '../components/format';

const TYPE_COLOR: Record<DebugLogEntry['type'], 'info' | 'success' | 'warning' | 'error'> = {
  info: 'info',
  success: 'success',
  warning: 'warning',
  error: 'error',
};

export function DebugPanel({
  answers,
  logs,
  loading,
  error,
}: {
  /** The answers as entered, by display name (the spec's id fragment is unreadable to a clinician). */
  answers: AnswerDetailJson[];
  logs: DebugLogEntry[];
  loading: boolean;
  error: string | null;
}) {
  return (
    <Stack component="aside" aria-label="Debug panel" spacing={2}>
      <Card component="section" aria-labelledby="debug-answers-title">
        <CardContent>
          <Typography id="debug-answers-title" variant="h2" sx={{ fontSize: '1.05rem', mb: 1 }}>
            Current Answers
          </Typography>
          {answers.length === 0 ? (
            <Typography color="text.secondary">No answers yet</Typography>
          ) : (
            <Box component="dl" sx={{ m: 0, fontSize: '0.9rem' }}>
              {answers.map((a, i) => (
                <Box key={`${a.parameter_id}-${i}`} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, py: 0.25 }}>
                  <Box component="dt" sx={{ color: 'text.secondary' }}>
                    {a.display_name}:
                  </Box>
                  <Box component="dd" sx={{ m: 0, fontWeight: 600 }}>
                    {answerText(a)}{' '}
                    <Box component="span" sx={{ fontWeight: 400, color: 'text.secondary' }}>
                      {answerProvenance(a) ? `(${answerProvenance(a)})` : ''}
                    </Box>
                  </Box>
                </Box>
              ))}
            </Box>
          )}
        </CardContent>
      </Card>
      <Card component="section" aria-labelledby="debug-logs-title">
        <CardContent>
          <Typography id="debug-logs-title" variant="h2" sx={{ fontSize: '1.05rem', mb: 1 }}>
            Rule Evaluation Logs
          </Typography>
          {error && (
            <Typography color="error" role="alert" sx={{ mb: 1 }}>
              {error}
            </Typography>
          )}
          <Box
            role="log"
            aria-label="Rule evaluation log entries"
            aria-busy={loading}
            tabIndex={0}
            sx={{ height: 500, overflowY: 'auto', pr: 1, border: 1, borderColor: 'divider', borderRadius: 1.5, p: 1 }}
          >
            {logs.length === 0 ? (
              <Typography color="text.secondary" sx={{ p: 1 }}>
                {loading ? 'Loading logs...' : 'No log entries yet'}
              </Typography>
            ) : (
              <Stack component="ol" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }}>
                {logs.map((log) => (
                  <Box component="li" key={log.id} data-log-type={log.type} sx={{ p: 1, borderRadius: 1, bgcolor: 'background.default' }}>
                    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 0.5 }}>
                      <Chip size="small" label={log.type} color={TYPE_COLOR[log.type] ?? 'default'} />
                      <Typography variant="caption" color="text.secondary" component="time" dateTime={log.timestamp}>
                        {formatTime(log.timestamp)}
                      </Typography>
                    </Box>
                    <Typography variant="body2">{log.message}</Typography>
                    {log.data !== undefined && log.data !== null && (
                      <Box
                        component="pre"
                        sx={{
                          m: 0,
                          mt: 0.5,
                          fontSize: '0.75rem',
                          whiteSpace: 'pre-wrap',
                          wordBreak: 'break-word',
                          color: 'text.secondary',
                        }}
                      >
                        {typeof log.data === 'string' ? log.data : JSON.stringify(log.data, null, 2)}
                      </Box>
                    )}
                  </Box>
                ))}
              </Stack>
            )}
          </Box>
        </CardContent>
      </Card>
    </Stack>
  );
}
