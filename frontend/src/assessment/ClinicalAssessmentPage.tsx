import { useCallback, useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import HomeIcon from '@mui/icons-material/Home';
import DashboardIcon from '@mui/icons-material/Dashboard';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import type { AnswerInput, AnswerOptionJson } from '@cds/contracts';
import { ApiError, errorMessage } from '../api';
import type { AssessmentJson as Assessment, DebugLogEntryJson as DebugLogEntry } from '@cds/contracts';
import { answerAssessment, getAssessment, redeemPrefill, startAssessment } from '../api/endpoints';
import { useAuth } from '../auth/AuthContext';
import { isAdmin } from '@cds/contracts';
import { LoadingBlock } from '../components/StateViews';
import { TopBar } from '../components/TopBar';
import { AssessmentReadyCard } from './AssessmentReadyCard';
import { AssessmentResultCard } from './AssessmentResultCard';
import { recalledCurrentAssessment, rememberCurrentAssessment } from './currentAssessment';
import { DebugPanel } from './DebugPanel';
import { refusalSx, type TypedAnswer } from './NumericAnswerField';
import { recalledPrefill, rememberPrefill, takeTicket, type Prefill } from './prefill';
import { QuestionCard } from './QuestionCard';
import { TYPED_ANSWER_KEY } from './questionOptions';

type Phase = 'loading' | 'ready' | 'starting' | 'active';

export default function ClinicalAssessmentPage() {
  const { role } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>('loading');
  const [prefill, setPrefillState] = useState<Prefill | null>(recalledPrefill);
  const setPrefill = useCallback(
    (next: Prefill | null | ((p: Prefill | null) => Prefill | null)) =>
      setPrefillState((prev) => {
        const value = typeof next === 'function' ? next(prev) : next;
        rememberPrefill(value);
        return value;
      }),
    [],
  );
  const [assessment, setAssessment] = useState<Assessment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState<string | null>(null);
  const [typedError, setTypedError] = useState<string | null>(null);
  const [debug, setDebug] = useState(false);
  const [logs, setLogs] = useState<DebugLogEntry[]>([]);
  const [logsLoading, setLogsLoading] = useState(false);
  const [logsError, setLogsError] = useState<string | null>(null);
  const questionHeading = useRef<HTMLHeadingElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  // Auto-start, once per visit: resume this tab's assessment (or the one asked for), else get ready to begin.
  useEffect(() => {
    let cancelled = false;
    // Opened from a CDS card: redeem its ticket (once), and begin a new assessment with the values offered.
    const ticket = takeTicket(location.search);
    if (ticket) {
      navigate('/clinical-form', { replace: true });
      setPrefill(null);
      rememberCurrentAssessment(null);
      redeemPrefill(ticket)
        .then(
          (p) =>
            !cancelled &&
            setPrefill({
              values: p.values,
              assessment_id: null,
              origin: p.origin,
              patient: p.patient,
              record_context: p.record_context,
            }),
        )
        .catch((e) => !cancelled && setError(errorMessage(e, 'The values from the EHR could not be loaded.')))
        .finally(() => !cancelled && setPhase('ready'));
      return () => {
        cancelled = true;
      };
    }
    const resumeId = (location.state as { resume?: string } | null)?.resume ?? recalledCurrentAssessment();
    if (!resumeId) {
      setPhase('ready');
      return;
    }
    getAssessment(resumeId)
      .then((a) => {
        if (cancelled) return;
        setAssessment(a);
        rememberCurrentAssessment(a.id);
        setPhase('active');
      })
      .catch((e) => {
        if (cancelled) return;
        if (!(e instanceof ApiError && e.status === 404)) console.error('Could not resume the assessment', e);
        rememberCurrentAssessment(null);
        setPhase('ready');
      });
    return () => {
      cancelled = true;
    };
    // Once, on arrival: the location it read is replaced above, and starting again would redeem a ticket twice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const start = useCallback(async () => {
    setError(null);
    setPhase('starting');
    setLogs([]);
    const pending = recalledPrefill();
    try {
      const a = await startAssessment(pending?.assessment_id === null ? pending.record_context : null);
      // Values from the EHR belong to the first assessment started after the link, never to the next patient.
      setPrefill((p) => (p && p.assessment_id === null ? { ...p, assessment_id: a.id } : null));
      setAssessment(a);
      rememberCurrentAssessment(a.id);
      setPhase('active');
    } catch (e) {
      // The patient's context can no longer be kept (too long since the values were loaded): the values go too,
      // so none is offered without the patient they belong to.
      if (e instanceof ApiError && e.code === 'record_context_unavailable') setPrefill(null);
      setError(errorMessage(e, 'Failed to start the assessment. Please try again.'));
      setPhase('ready');
    }
  }, [setPrefill]);

  /** Sends one answer; `key` marks the button or field that is busy. */
  const send = async (key: string, value: AnswerInput, extra: Omit<TypedAnswer, 'value'> = {}) => {
    if (!assessment?.current_question || submitting) return;
    setError(null);
    setTypedError(null);
    setSubmitting(key);
    try {
      const next = await answerAssessment(assessment.id, {
        parameter_id: assessment.current_question.parameter_id,
        value,
        ...extra,
        step: assessment.step,
      });
      setAssessment(next);
    } catch (e) {
      const message = errorMessage(e, 'Failed to record your answer. Please try again.');
      // A refused typed value is explained beside the field, where the typed text is kept.
      if (key === TYPED_ANSWER_KEY) setTypedError(message);
      else setError(message);
    } finally {
      setSubmitting(null);
    }
  };
  // The option offered from the record, chosen as it was: confirmed from there.
  const choose = (o: AnswerOptionJson, offeredOne = false) =>
    send(o.label, o.value, offeredOne && prefill?.origin ? { confirmed_from: prefill.origin } : {});
  const typed = (t: TypedAnswer) =>
    send(TYPED_ANSWER_KEY, t.value, { unit: t.unit, observed_at: t.observed_at, confirmed_from: t.confirmed_from });

  // Move focus to each new question so keyboard and screen-reader users follow along.
  const questionKey = assessment?.current_question?.parameter_id;
  useEffect(() => {
    if (questionKey) questionHeading.current?.focus();
  }, [questionKey, assessment?.step]);

  // When the assessment completes, focus moves to the result so it is read first (issue 10, item 17).
  const completed = phase === 'active' && !!assessment && (assessment.is_completed || !assessment.current_question);
  useEffect(() => {
    if (completed) resultHeading.current?.focus();
  }, [completed, assessment?.id]);

  // Debug mode: the server's rule-evaluation log for this assessment, refreshed after each step.
  const step = assessment ? `${assessment.id}:${assessment.step}:${assessment.is_completed}` : null;
  useEffect(() => {
    if (!debug || !assessment) return;
    let cancelled = false;
    setLogsLoading(true);
    setLogsError(null);
    getAssessment(assessment.id, true)
      .then((a) => !cancelled && setLogs(a.debug_log ?? []))
      .catch((e) => !cancelled && setLogsError(errorMessage(e, 'Could not load the evaluation log.')))
      .finally(() => !cancelled && setLogsLoading(false));
    return () => {
      cancelled = true;
    };
    // Keyed on the step, not the object: every answer returns a new assessment, and one fetch per step is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debug, step]);

  const consoleLink = isAdmin(role) ? { to: '/admin', label: 'Admin Console' } : { to: '/pcp', label: 'PCP Console' };
  const q = assessment?.current_question ?? null;

  let body: React.ReactNode;
  if (phase === 'loading' || phase === 'starting') {
    body = <LoadingBlock label="Loading clinical assessment" text="Loading clinical assessment..." />;
  } else if (phase === 'ready' || !assessment) {
    body = <AssessmentReadyCard prefill={prefill} onStart={start} />;
  } else if (assessment.is_completed || !q) {
    body = <AssessmentResultCard assessment={assessment} onStart={start} headingRef={resultHeading} />;
  } else {
    body = (
      <QuestionCard
        assessment={assessment}
        question={q}
        prefill={prefill}
        submitting={submitting}
        typedError={typedError}
        onChoose={choose}
        onTyped={typed}
        onRestart={start}
        headingRef={questionHeading}
      />
    );
  }

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <TopBar
        title="Clinical Assessment"
        actions={
          <>
            <Button component={RouterLink} to="/" startIcon={<HomeIcon />} color="secondary">
              Home
            </Button>
            <Button component={RouterLink} to={consoleLink.to} startIcon={<DashboardIcon />} color="secondary">
              {consoleLink.label}
            </Button>
            <FormControlLabel
              control={<Switch checked={debug} onChange={(e) => setDebug(e.target.checked)} />}
              label="Debug Mode"
              sx={{ ml: 1 }}
            />
          </>
        }
      />
      {/* On phones the toasts sit at the top, over the header, not over the answer buttons (styles/public.css). */}
      <Container component="main" maxWidth={debug ? 'xl' : 'md'} sx={{ py: 4 }} data-toasts="top">
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            gridTemplateColumns: { xs: '1fr', lg: debug ? 'minmax(0, 3fr) minmax(320px, 2fr)' : '1fr' },
            alignItems: 'start',
          }}
        >
          <Stack spacing={2}>
            {error && (
              <Alert severity="error" role="alert" sx={refusalSx}>
                {error}
              </Alert>
            )}
            {body}
            <Typography variant="body2" color="text.secondary">
              Recommendations support, and do not replace, clinical judgement.
            </Typography>
          </Stack>
          {debug && <DebugPanel answers={assessment?.answer_details ?? []} logs={logs} loading={logsLoading} error={logsError} />}
        </Box>
      </Container>
    </Box>
  );
}
