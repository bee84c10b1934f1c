import { useCallback, useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import HomeIcon from '@mui/icons-material/Home';
import DashboardIcon from '@mui/icons-material/Dashboard';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import {
  NOT_AVAILABLE,
  NOT_AVAILABLE_LABEL,
  unitDisplay,
  type AnswerInput,
  type AnswerOptionJson,
  type CdsPrefillValue,
  type QuestionJson,
} from '@cds/contracts';
import { ApiError, errorMessage } from '../api';
import type { AssessmentJson as Assessment, DebugLogEntryJson as DebugLogEntry } from '@cds/contracts';
import { answerAssessment, getAssessment, redeemPrefill, startAssessment } from '../api/endpoints';
import { useAuth } from '../auth/AuthContext';
import { isAdmin } from '@cds/contracts';
import { LoadingBlock } from '../components/StateViews';
import { patientLabel } from '../components/format';
import { TopBar } from '../components/TopBar';
import { FindingsResult } from '../components/findings/FindingsResult';
import { findingsOf } from '../components/findings/clinicalFormat';
import { DebugPanel } from './DebugPanel';
import { NumericAnswerField, refusalSx, type TypedAnswer } from './NumericAnswerField';
import { prefillNote, prefillWhen, recalledPrefill, rememberPrefill, takeTicket, type Prefill } from './prefill';

/** The assessment in progress survives a reload of this tab (cleared at sign-out). */
export const CURRENT_ASSESSMENT_KEY = 'cds.assessment.current';

/** Marks the typed-value field as the busy control. */
const TYPED = '\u0000typed';

function remember(id: string | null) {
  try {
    if (id) sessionStorage.setItem(CURRENT_ASSESSMENT_KEY, id);
    else sessionStorage.removeItem(CURRENT_ASSESSMENT_KEY);
  } catch {
    /* storage unavailable: nothing to resume later */
  }
}

function recalled(): string | null {
  try {
    return sessionStorage.getItem(CURRENT_ASSESSMENT_KEY);
  } catch {
    return null;
  }
}

type Phase = 'loading' | 'ready' | 'starting' | 'active';

/** The server's options, always ending with Not available (every question may be unanswerable). */
export function questionOptions(q: QuestionJson): AnswerOptionJson[] {
  const options = q.options ?? [];
  return options.some((o) => o.value === NOT_AVAILABLE) ? options : [...options, { label: NOT_AVAILABLE_LABEL, value: NOT_AVAILABLE }];
}

/** The band given earlier for this question's parameter, when the server asks again for the exact value. */
function bandAskedAgain(a: Assessment, q: QuestionJson): string | null {
  const earlier = a.answer_details?.find((d) => d.parameter_id === q.parameter_id && d.entered_as === 'band');
  return earlier ? earlier.label : null;
}

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

  // Auto-start: resume this tab's assessment (or the one asked for), else get ready to begin.
  useEffect(() => {
    let cancelled = false;
    // Opened from a CDS card: redeem its ticket (once), and begin a new assessment with the values offered.
    const ticket = takeTicket(location.search);
    if (ticket) {
      navigate('/clinical-form', { replace: true });
      setPrefill(null);
      remember(null);
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
    const resumeId = (location.state as { resume?: string } | null)?.resume ?? recalled();
    if (!resumeId) {
      setPhase('ready');
      return;
    }
    getAssessment(resumeId)
      .then((a) => {
        if (cancelled) return;
        setAssessment(a);
        remember(a.id);
        setPhase('active');
      })
      .catch((e) => {
        if (cancelled) return;
        if (!(e instanceof ApiError && e.status === 404)) console.error('Could not resume the assessment', e);
        remember(null);
        setPhase('ready');
      });
    return () => {
      cancelled = true;
    };
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
      remember(a.id);
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
      if (key === TYPED) setTypedError(message);
      else setError(message);
    } finally {
      setSubmitting(null);
    }
  };
  // The option offered from the record, chosen as it was: confirmed from there.
  const choose = (o: AnswerOptionJson, offeredOne = false) =>
    send(o.label, o.value, offeredOne && prefill?.origin ? { confirmed_from: prefill.origin } : {});
  const typed = (t: TypedAnswer) => send(TYPED, t.value, { unit: t.unit, observed_at: t.observed_at, confirmed_from: t.confirmed_from });

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
  }, [debug, step]);

  const consoleLink = isAdmin(role) ? { to: '/admin', label: 'Admin Console' } : { to: '/pcp', label: 'PCP Console' };
  const q = assessment?.current_question ?? null;
  const numeric = q?.input ? (q as QuestionJson & { input: NonNullable<QuestionJson['input']> }) : null;
  const options = q ? questionOptions(q) : [];
  const bands = options.filter((o) => o.value !== NOT_AVAILABLE);
  const unitShown = q ? (q.input?.unit_display ?? unitDisplay(q.units)) : '';
  const askedAgain = assessment && q ? bandAskedAgain(assessment, q) : null;
  const answered = assessment ? (assessment.answer_details?.length ?? Object.keys(assessment.answers ?? {}).length) : 0;
  // The EHR's value for this question, offered for the clinician to confirm.
  const offered: CdsPrefillValue | undefined =
    q && assessment && prefill?.assessment_id === assessment.id ? prefill.values.find((v) => v.parameter_id === q.parameter_id) : undefined;
  const offeredOption = offered && !numeric ? options.find((o) => JSON.stringify(o.value) === JSON.stringify(offered.value)) : undefined;
  const pendingPrefill = prefill?.assessment_id === null ? prefill.values : [];

  let body: React.ReactNode;
  if (phase === 'loading' || phase === 'starting') {
    body = <LoadingBlock label="Loading clinical assessment" text="Loading clinical assessment..." />;
  } else if (phase === 'ready' || !assessment) {
    body = (
      <Card component="section" aria-labelledby="ready-title">
        <CardContent sx={{ textAlign: 'center', py: 5 }}>
          <HelpOutlineIcon color="primary" sx={{ fontSize: 48 }} aria-hidden="true" />
          <Typography id="ready-title" variant="h2" sx={{ fontSize: '1.4rem', my: 1 }}>
            Ready to Begin?
          </Typography>
          {pendingPrefill.length > 0 && (
            <Alert severity="info" sx={{ mb: 2, textAlign: 'left' }} data-testid="prefill-summary">
              <Typography sx={{ fontWeight: 600 }}>
                {prefill?.origin === 'record' ? 'Values from the record' : 'Values from the EHR'}
              </Typography>
              {prefill?.patient && (
                <Typography variant="body2" data-testid="prefill-patient">
                  Patient: <strong>{patientLabel(prefill.patient)}</strong>
                </Typography>
              )}
              <Box component="ul" sx={{ my: 0.5, pl: 2.5 }}>
                {pendingPrefill.map((v) => (
                  <li key={v.parameter_id}>
                    {v.display_name}: {String(v.value)}
                    {v.unit ? ` ${unitDisplay(v.unit)}` : ''} ({prefillWhen(v)})
                  </li>
                ))}
              </Box>
              Each is offered when its question comes up; you confirm it or enter another answer.
            </Alert>
          )}
          <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 520, mx: 'auto' }}>
            You will be asked one question at a time: type the measured value or choose a range, or mark it as not available. Published
            diagnostic rules are evaluated after each answer, and the assessment ends when no further answer can change the result.
          </Typography>
          <Button variant="contained" size="large" onClick={start}>
            Start Assessment
          </Button>
        </CardContent>
      </Card>
    );
  } else if (assessment.is_completed || !q) {
    const findings = findingsOf(assessment);
    body = (
      <Card component="section" aria-labelledby="result-title" data-testid="result-card">
        <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography
            id="result-title"
            ref={resultHeading}
            tabIndex={-1}
            variant="h2"
            sx={{ fontSize: '1.4rem', mb: 0.5, outline: 'none' }}
          >
            {findings.length ? 'Clinical Recommendation' : 'Assessment complete'}
          </Typography>
          {assessment.patient && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="assessment-patient">
              Patient: {patientLabel(assessment.patient)}
            </Typography>
          )}
          {findings.length > 1 && (
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {findings.length} rules fired, most urgent first.
            </Typography>
          )}
          <Box sx={{ mt: 1.5 }}>
            <FindingsResult
              result={assessment}
              answers={assessment.answer_details}
              headingLevel="h3"
              noRecommendationActions={
                <Button variant="contained" onClick={start}>
                  Start New Assessment
                </Button>
              }
            />
          </Box>
          {findings.length > 0 && (
            <Box sx={{ mt: 3, display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
              <Button variant="contained" onClick={start}>
                Start New Assessment
              </Button>
              <Button component={RouterLink} to={`/pcp/cases/${assessment.id}`} variant="text">
                View in Case History
              </Button>
            </Box>
          )}
        </CardContent>
      </Card>
    );
  } else {
    body = (
      <Card component="section" aria-labelledby="question-title" data-testid="question-card">
        {submitting && <LinearProgress aria-label="Recording answer" />}
        <CardContent sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Typography variant="overline" color="text.secondary">
            Question {answered + 1}
          </Typography>
          {assessment.patient && (
            <Typography variant="body2" color="text.secondary" data-testid="assessment-patient">
              Patient: {patientLabel(assessment.patient)}
            </Typography>
          )}
          <Typography
            id="question-title"
            ref={questionHeading}
            tabIndex={-1}
            variant="h2"
            sx={{ fontSize: '1.4rem', mb: 0.5, outline: 'none' }}
          >
            {q.text || q.display_name}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2.5 }}>
            {q.display_name}
            {unitShown ? ` · ${unitShown}` : ''}
          </Typography>
          {askedAgain && (
            <Alert severity="info" sx={{ mb: 2 }} data-testid="exact-value-needed">
              The band you chose ({askedAgain}) includes a threshold a rule uses, so it cannot decide that rule. Please enter the exact
              value.
            </Alert>
          )}
          {numeric && (
            <NumericAnswerField
              key={`${q.parameter_id}:${assessment.step}`}
              question={numeric}
              onSubmit={typed}
              busy={submitting === TYPED}
              serverError={typedError}
              prefill={offered && typeof offered.value === 'number' ? { ...offered, value: offered.value } : undefined}
              prefillOrigin={prefill?.origin}
            />
          )}
          {offeredOption && (
            <Alert severity="info" sx={{ mb: 2 }} data-testid="prefill-note">
              {prefillNote(offered!, prefill?.origin)}: {offeredOption.label}. Choose it to confirm, or choose another answer.
            </Alert>
          )}
          {numeric && bands.length > 0 && (
            <Typography id="bands-label" sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
              Or choose a range
            </Typography>
          )}
          <Box
            role="group"
            aria-labelledby={numeric && bands.length > 0 ? 'bands-label' : 'question-title'}
            sx={{
              display: 'grid',
              gap: 1.5,
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' },
              mt: numeric && !bands.length ? 2 : 0,
            }}
          >
            {options.map((o) => {
              const na = o.value === NOT_AVAILABLE;
              return (
                <Button
                  key={`${o.label}-${JSON.stringify(o.value)}`}
                  variant={o === offeredOption ? 'contained' : 'outlined'}
                  color={na ? 'secondary' : 'primary'}
                  size="large"
                  onClick={() => choose(o, o === offeredOption)}
                  disabled={!!submitting}
                  data-not-available={na || undefined}
                  sx={{ justifyContent: 'flex-start', py: 1.5, textAlign: 'left', ...(na ? { borderStyle: 'dashed' } : {}) }}
                  startIcon={submitting === o.label ? <CircularProgress size={16} aria-hidden="true" /> : undefined}
                >
                  {o.label}
                </Button>
              );
            })}
          </Box>
          <Box sx={{ mt: 3, display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {answered} answered
            </Typography>
            <Button color="secondary" onClick={start} disabled={!!submitting}>
              Restart Assessment
            </Button>
          </Box>
        </CardContent>
      </Card>
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
