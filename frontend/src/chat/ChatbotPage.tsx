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
import { NOT_AVAILABLE, NOT_AVAILABLE_LABEL, type AnswerOptionJson } from '@cds/contracts';
import type {
  ChatMatchedRuleJson as ChatMatchedRule,
  ChatMessageJson as ChatMessage,
  ChatSessionJson as ChatSession,
} from '@cds/contracts';
import { answerChat, chooseChatRule, startChatSession } from '../api/endpoints';
import { FindingCard } from '../components/findings/FindingCard';
import { UndeterminedList } from '../components/findings/FindingsResult';
import { findingSeverity } from '../components/findings/clinicalFormat';
import { SeverityBadge, SeverityIcon, severityLevel } from '../components/SeverityBadge';
import { formatTime } from '../components/format';
import { severityColors } from '../theme';
import { TopBar } from '../components/TopBar';
import { TOASTS } from '../messages';
import { toast } from '../toast/toast';

/** A question's options, always ending with Not available (never taken as a yes or a no). */
function withNotAvailable(options: AnswerOptionJson[]): AnswerOptionJson[] {
  return options.some((o) => o.value === NOT_AVAILABLE) ? options : [...options, { label: NOT_AVAILABLE_LABEL, value: NOT_AVAILABLE }];
}

/**
 * The matched rules of the final message: every finding in the server's order (critical, high,
 * then the rest), the one followed marked. Issue 20: the chosen rule used to come first, above
 * critical findings. Older sessions whose message holds only some are read from matched_rules.
 */
function finalRules(m: ChatMessage, session: ChatSession): ChatMatchedRule[] {
  return session.matched_rules?.length ? session.matched_rules : (m.rules ?? []);
}

function FinalFindings({ rules, session }: { rules: ChatMatchedRule[]; session: ChatSession }) {
  if (rules.length === 0) {
    // A response without the matched rules: the actions' severity, in words and colour.
    const actions = session.final_recommendations ?? [];
    if (!actions.length) return null;
    const severity = severityLevel(actions[0].severity);
    return (
      <Box sx={{ mt: 1, display: 'flex', gap: 1, alignItems: 'center' }}>
        <SeverityIcon severity={severity} aria-hidden="true" />
        <SeverityBadge severity={severity} />
      </Box>
    );
  }
  return (
    <Stack spacing={1.5} sx={{ mt: 1 }}>
      {rules.map((r, i) => (
        <FindingCard
          key={r.rule_id}
          finding={r}
          primary={r.selected || (i === 0 && !rules.some((x) => x.selected))}
          answers={session.answer_details}
          headingLevel="h3"
          dense
        />
      ))}
    </Stack>
  );
}

function Message({ m, session, final }: { m: ChatMessage; session: ChatSession | null; final: boolean }) {
  const mine = m.type === 'answer';
  const rec = m.type === 'recommendation';
  const who = mine ? 'You' : rec ? 'Recommendation' : 'Assistant';
  const rules = rec && final && session ? finalRules(m, session) : [];
  // A "no recommendation" message has no severity: it is not coloured as if it had one.
  const severity = rec && session && (rules.length || session.final_recommendations?.length) ? findingSeverityOr(rules[0], session) : null;
  const colors = severity ? severityColors[severity] : null;
  return (
    <Box
      component="li"
      data-message-type={m.type}
      data-severity={severity ?? undefined}
      data-final={(rec && final) || undefined}
      sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start' }}
    >
      <Box
        sx={{
          maxWidth: rec ? '100%' : '85%',
          width: rec && final ? '100%' : undefined,
          minWidth: 0,
          px: rec ? 1.5 : 2,
          py: 1.25,
          borderRadius: 2,
          bgcolor: mine ? 'primary.main' : 'background.default',
          color: mine ? 'primary.contrastText' : 'text.primary',
          border: rec ? 2 : 1,
          borderColor: colors ? colors.border : mine ? 'primary.main' : 'divider',
        }}
      >
        <Typography component="p" variant="caption" sx={{ fontWeight: 700, opacity: 0.9 }}>
          {who}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{m.content}</Typography>
        {rec && final && session && <FinalFindings rules={rules} session={session} />}
        {rec && final && m.undetermined_rules?.length ? (
          <Box sx={{ mt: 1.5 }}>
            <UndeterminedList rules={m.undetermined_rules} headingLevel="h3" />
          </Box>
        ) : null}
        <Typography
          component="time"
          variant="caption"
          dateTime={m.timestamp}
          sx={{ display: 'block', textAlign: 'right', opacity: 0.85, mt: 0.5 }}
        >
          {formatTime(m.timestamp)}
        </Typography>
      </Box>
    </Box>
  );
}

function findingSeverityOr(rule: ChatMatchedRule | undefined, session: ChatSession) {
  return rule ? findingSeverity(rule) : severityLevel(session.final_recommendations?.[0]?.severity);
}

/** The rules offered in the pending choice: on its message, else the session's matched rules. */
function choiceRules(session: ChatSession): ChatMatchedRule[] {
  const asked = [...session.conversation_history].reverse().find((m) => m.type === 'question' && m.rules?.length);
  return asked?.rules ?? session.matched_rules ?? [];
}

/** The multiple-match choice: each matching rule with its severity, actions and basis, and a button to follow it. */
function ChoiceList({
  options,
  rules,
  session,
  onChoose,
  disabled,
}: {
  options: AnswerOptionJson[];
  rules: ChatMatchedRule[];
  session: ChatSession;
  onChoose: (o: AnswerOptionJson) => void;
  disabled: boolean;
}) {
  return (
    <Stack spacing={1.5}>
      {options.map((o) => {
        const r = rules.find((x) => x.rule_id === o.value);
        // Beside a card, the button says what it does; alone, it is the rule's name as the server sends it.
        const button = (
          <Button variant="contained" onClick={() => onChoose(o)} disabled={disabled} sx={{ mt: r ? 1.5 : 0 }}>
            {r ? `Follow ${o.label}` : o.label}
          </Button>
        );
        return r ? (
          <FindingCard key={String(o.value)} finding={r} answers={session.answer_details} headingLevel="h3" dense footer={button} />
        ) : (
          <Box key={String(o.value)}>{button}</Box>
        );
      })}
    </Stack>
  );
}

export default function ChatbotPage() {
  const [session, setSession] = useState<ChatSession | null>(null);
  const [starting, setStarting] = useState(false);
  const [processing, setProcessing] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);

  const messages = session?.conversation_history ?? [];

  // Follow the conversation; at the end, show the final message from its top (its cards are taller than the
  // list), again when the window is resized or a phone turned.
  const completed = !!session?.is_completed;
  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const follow = () => {
      const final = completed ? el.querySelector<HTMLElement>('[data-final]') : null;
      if (final) el.scrollTop += final.getBoundingClientRect().top - el.getBoundingClientRect().top - 8;
      else el.scrollTop = el.scrollHeight;
    };
    follow();
    if (!completed) return;
    window.addEventListener('resize', follow);
    return () => window.removeEventListener('resize', follow);
  }, [messages.length, processing, starting, completed]);

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

  const choose = async (option: AnswerOptionJson) => {
    if (!session?.pending || processing) return;
    const pending = session.pending;
    setProcessing(true);
    try {
      const next =
        pending.kind === 'choice'
          ? await chooseChatRule(session.id, String(option.value))
          : await answerChat(session.id, { parameter_id: pending.parameter_id, value: option.value });
      setSession(next);
    } catch (e) {
      console.error('Chat answer failed', e);
      toast(TOASTS.chatAnswerFailed);
    } finally {
      setProcessing(false);
    }
  };

  const inSession = !!session || starting;
  const pending = !processing && session && !session.is_completed ? session.pending : null;
  const options = pending ? (pending.kind === 'question' ? withNotAvailable(pending.options) : pending.options) : [];
  const lastRecommendation = [...messages].reverse().find((m) => m.type === 'recommendation')?.id;

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
                I will ask a few questions about the patient and suggest a recommendation from the published diagnostic rules. Choose an
                answer for each question. The recommendation comes from the rules alone, with the conditions it is based on.
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
                    <Message key={m.id} m={m} session={session} final={!!session?.is_completed && m.id === lastRecommendation} />
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
                  {pending?.kind === 'choice' && session ? (
                    <ChoiceList options={options} rules={choiceRules(session)} session={session} onChoose={choose} disabled={processing} />
                  ) : (
                    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                      {options.map((o) => (
                        <Button
                          key={`${o.label}-${JSON.stringify(o.value)}`}
                          variant="outlined"
                          color={o.value === NOT_AVAILABLE ? 'secondary' : 'primary'}
                          onClick={() => choose(o)}
                          disabled={processing}
                          sx={o.value === NOT_AVAILABLE ? { borderStyle: 'dashed' } : undefined}
                        >
                          {o.label}
                        </Button>
                      ))}
                    </Stack>
                  )}
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
