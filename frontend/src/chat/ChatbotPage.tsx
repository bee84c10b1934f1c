import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import { Link as RouterLink } from 'react-router-dom';
import { answerChat, chooseChatRule, startChatSession } from '../api/endpoints';
import type { AnswerOption, ChatMessage, ChatSession } from '../api/types';
import { formatTime } from '../components/format';
import { TopBar } from '../components/TopBar';
import { TOASTS } from '../messages';
import { toast } from '../toast/toast';

function Message({ m }: { m: ChatMessage }) {
  const mine = m.type === 'answer';
  const rec = m.type === 'recommendation';
  const who = mine ? 'You' : rec ? 'Recommendation' : 'Assistant';
  return (
    <Box component="li" data-message-type={m.type} sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start' }}>
      <Box
        sx={{
          maxWidth: '85%',
          px: 2,
          py: 1.25,
          borderRadius: 2,
          bgcolor: mine ? 'primary.main' : rec ? 'success.light' : 'background.default',
          color: mine ? 'primary.contrastText' : 'text.primary',
          border: rec ? 2 : 1,
          borderColor: rec ? 'success.main' : mine ? 'primary.main' : 'divider',
        }}
      >
        <Typography component="p" variant="caption" sx={{ fontWeight: 700, opacity: 0.9 }}>
          {who}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap' }}>{m.content}</Typography>
        <Typography component="time" variant="caption" dateTime={m.timestamp} sx={{ display: 'block', textAlign: 'right', opacity: 0.85, mt: 0.5 }}>
          {formatTime(m.timestamp)}
        </Typography>
      </Box>
    </Box>
  );
}

export default function ChatbotPage() {
  const [session, setSession] = useState<ChatSession | null>(null);
  const [starting, setStarting] = useState(false);
  const [processing, setProcessing] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);

  const messages = session?.conversation_history ?? [];

  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, processing, starting]);

  const start = async () => {
    const previous = session;
    setSession(null);
    setStarting(true);
    try {
      const s = await startChatSession();
      if (!s.pending && !s.is_completed) {
        toast(TOASTS.chatNoQuestions);
      } else {
        setSession(s);
      }
    } catch (e) {
      console.error('Chat session start failed', e);
      // Keep the conversation that was on screen.
      setSession(previous);
      toast(TOASTS.chatStartFailed);
    } finally {
      setStarting(false);
    }
  };

  const choose = async (option: AnswerOption) => {
    if (!session?.pending || processing) return;
    const pending = session.pending;
    setProcessing(true);
    try {
      const next =
        pending.kind === 'choice'
          ? await chooseChatRule(session.id, String(option.value))
          : await answerChat(session.id, pending.parameter_id, option.value);
      setSession(next);
    } catch (e) {
      console.error('Chat answer failed', e);
      toast(TOASTS.chatAnswerFailed);
    } finally {
      setProcessing(false);
    }
  };

  const inSession = !!session || starting;
  const options = !processing && session && !session.is_completed ? session.pending?.options ?? [] : [];

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <TopBar
        title="Diagnostic Assistant"
        actions={
          <Button component={RouterLink} to="/dashboard" startIcon={<ArrowBackIcon />} color="secondary">
            Back to Dashboard
          </Button>
        }
      />
      <Container component="main" maxWidth="md" sx={{ py: 4 }}>
        {!inSession ? (
          <Card component="section" aria-labelledby="chat-welcome-title">
            <CardContent sx={{ textAlign: 'center', py: 5 }}>
              <SmartToyIcon color="primary" sx={{ fontSize: 48 }} aria-hidden="true" />
              <Typography id="chat-welcome-title" variant="h2" sx={{ fontSize: '1.4rem', my: 1 }}>
                Welcome to the Diagnostic Assistant
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 560, mx: 'auto' }}>
                I will ask a few questions about the patient and suggest a recommendation from the published diagnostic rules.
                Choose an answer for each question.
              </Typography>
              <Button variant="contained" size="large" onClick={start} disabled={starting}>
                Start Conversation
              </Button>
            </CardContent>
          </Card>
        ) : (
          <Card component="section" aria-labelledby="chat-title">
            <CardContent>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 1 }}>
                <Typography id="chat-title" variant="h2" sx={{ fontSize: '1.2rem' }}>
                  Conversation
                </Typography>
                {session && !session.is_completed && (
                  <Button startIcon={<RestartAltIcon />} onClick={start} disabled={starting || processing} color="secondary">
                    Restart
                  </Button>
                )}
              </Box>
              <Box
                ref={listRef}
                role="log"
                aria-label="Conversation messages"
                aria-live="polite"
                tabIndex={0}
                sx={{ maxHeight: '24rem', overflowY: 'auto', p: 1, border: 1, borderColor: 'divider', borderRadius: 2 }}
              >
                <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 1.5 }}>
                  {messages.map((m) => (
                    <Message key={m.id} m={m} />
                  ))}
                  {starting && (
                    <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary', p: 1 }}>
                      <CircularProgress size={16} aria-hidden="true" /> Preparing your first question...
                    </Box>
                  )}
                  {processing && (
                    <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary', p: 1 }}>
                      <CircularProgress size={16} aria-hidden="true" /> Processing...
                    </Box>
                  )}
                </Box>
              </Box>

              {options.length > 0 && (
                <Box sx={{ mt: 2 }} role="group" aria-labelledby="chat-options-label">
                  <Typography id="chat-options-label" sx={{ fontWeight: 600, mb: 1 }}>
                    Please select an option:
                  </Typography>
                  <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                    {options.map((o) => (
                      <Button key={`${o.label}-${String(o.value)}`} variant="outlined" onClick={() => choose(o)} disabled={processing}>
                        {o.label}
                      </Button>
                    ))}
                  </Stack>
                </Box>
              )}

              {session?.is_completed && (
                <Box sx={{ mt: 2, p: 2, borderRadius: 2, bgcolor: 'background.default', textAlign: 'center' }} role="status">
                  <Typography sx={{ mb: 1.5 }}>Session completed. Would you like to start over?</Typography>
                  <Button variant="contained" onClick={start} disabled={starting}>
                    Start New Session
                  </Button>
                </Box>
              )}
            </CardContent>
          </Card>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          Suggestions support, and do not replace, clinical judgement.
        </Typography>
      </Container>
    </Box>
  );
}
