import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router-dom';
import type { ChatSessionJson as ChatSession } from '@cds/contracts';
import { getChatSession } from '../api/endpoints';
import { FindingCard } from '../components/findings/FindingCard';
import { NoRecommendationCard, UndeterminedList } from '../components/findings/FindingsResult';
import { formatDateTime } from '../components/format';
import { useAsync } from '../components/useAsync';
import { AnswersSection, CaseDetailFrame, CaseFacts, CaseSection, Fact, NotCompleted } from './CaseDetailParts';
import { CASE_KIND_LABEL, ChatStatusChip } from './CaseList';

function ChatFindings({ session }: { session: ChatSession }) {
  // Every finding in the server's order (critical, high, then the rest), as the final message showed it;
  // the one followed is marked primary where it ranks (issue 20).
  const findings = session.matched_rules ?? [];
  const final = [...session.conversation_history].reverse().find((m) => m.type === 'recommendation');
  const undetermined = final?.undetermined_rules ?? [];
  return (
    <Stack spacing={2}>
      {findings.length === 0 ? (
        <NoRecommendationCard headingLevel="h3" ruledOut={final?.ruled_out} />
      ) : (
        <Stack component="ol" spacing={2} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label="Findings">
          {findings.map((f) => (
            <li key={f.rule_id}>
              <FindingCard finding={f} primary={f.selected} answers={session.answer_details} headingLevel="h3" />
            </li>
          ))}
        </Stack>
      )}
      <UndeterminedList rules={undetermined} headingLevel="h3" />
    </Stack>
  );
}

/** One Diagnostic Assistant conversation in the case history: its findings, the answers as entered, and the transcript. */
export default function ChatCaseDetail() {
  const { id = '' } = useParams();
  const { data, error, loading, reload } = useAsync(() => getChatSession(id), [id]);
  const answers = data?.answer_details ?? [];
  const transcript = data?.conversation_history.filter((m) => m.type !== 'recommendation') ?? [];

  return (
    <CaseDetailFrame title="Chat session details" noun="chat session" loading={loading} error={error} reload={reload}>
      {data && (
        <Stack spacing={3}>
          <CaseFacts record={data} status={<ChatStatusChip session={data} />}>
            <Fact label="Kind">{CASE_KIND_LABEL.chat}</Fact>
          </CaseFacts>
          <CaseSection id="chat-result-title" title="Result" gap={2}>
            {data.is_completed ? (
              <ChatFindings session={data} />
            ) : (
              <NotCompleted
                text="This conversation was not completed."
                action={
                  <Button component={RouterLink} to="/chatbot" variant="outlined">
                    Start a new conversation
                  </Button>
                }
              />
            )}
          </CaseSection>
          <AnswersSection id="chat-answers-title" answers={answers} />
          <CaseSection id="chat-transcript-title" title="Conversation">
            <Stack component="ol" spacing={1} sx={{ m: 0, pl: 0, listStyle: 'none' }} aria-label="Conversation">
              {transcript.map((m) => (
                <Box
                  component="li"
                  key={m.id}
                  data-testid="transcript-message"
                  sx={{ alignSelf: m.type === 'answer' ? 'flex-end' : 'flex-start', maxWidth: '85%', overflowWrap: 'anywhere' }}
                >
                  <Typography variant="body2" color="text.secondary">
                    {m.type === 'answer' ? 'You' : 'Assistant'} · {formatDateTime(m.timestamp)}
                  </Typography>
                  <Typography>{m.content}</Typography>
                </Box>
              ))}
            </Stack>
          </CaseSection>
        </Stack>
      )}
    </CaseDetailFrame>
  );
}
