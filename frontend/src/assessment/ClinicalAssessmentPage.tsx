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
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { ApiError, errorMessage } from '../api';
import { answerAssessment, getAssessment, startAssessment } from '../api/endpoints';
import type { AnswerOption, Assessment, DebugLogEntry } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { isAdmin } from '../auth/roles';
import { LoadingBlock } from '../components/StateViews';
import { TopBar } from '../components/TopBar';
import { NO_RECOMMENDATION } from '../messages';
import { DebugPanel } from './DebugPanel';
import { RecommendationDetails } from './RecommendationDetails';

/** The assessment in progress survives a reload of this tab (cleared at sign-out). */
export const CURRENT_ASSESSMENT_KEY = 'cds.assessment.current';

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

export default function ClinicalAssessmentPage() {
  const { role } = useAuth();
  const location = useLocation();
  const [phase, setPhase] = useState<Phase>('loading');
  const [assessment, setAssessment] = useState<Assessment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState<string | null>(null);
  const [debug, setDebug] = useState(false);
  const [logs, setLogs] = useState<DebugLogEntry[]>([]);
  const [logsLoading, setLogsLoading] = useState(false);
  const [logsError, setLogsError] = useState<string | null>(null);
  const questionHeading = useRef<HTMLHeadingElement>(null);

  // Auto-start: resume this tab's assessment (or the one asked for), else get ready to begin.
  useEffect(() => {
    let cancelled = false;
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
    try {
      const a = await startAssessment();
      setAssessment(a);
      remember(a.id);
      setPhase('active');
    } catch (e) {
      setError(errorMessage(e, 'Failed to start the assessment. Please try again.'));
      setPhase('ready');
    }
  }, []);

  const answer = async (option: AnswerOption) => {
    if (!assessment?.current_question || submitting) return;
    setError(null);
    setSubmitting(option.label);
    try {
      const next = await answerAssessment(assessment.id, assessment.current_question.parameter_id, option.value);
      setAssessment(next);
    } catch (e) {
      setError(errorMessage(e, 'Failed to record your answer. Please try again.'));
    } finally {
      setSubmitting(null);
    }
  };

  // Move focus to each new question so keyboard and screen-reader users follow along.
  const questionKey = assessment?.current_question?.parameter_id;
  useEffect(() => {
    if (questionKey) questionHeading.current?.focus();
  }, [questionKey]);

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
  const answered = assessment ? Object.keys(assessment.answers ?? {}).length : 0;

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
          <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 520, mx: 'auto' }}>
            You will be asked one question at a time. Published diagnostic rules are evaluated after each answer, and the
            assessment ends as soon as a rule matches.
          </Typography>
          <Button variant="contained" size="large" onClick={start}>
            Start Assessment
          </Button>
        </CardContent>
      </Card>
    );
  } else if (assessment.is_completed || !q) {
    body = assessment.recommendation ? (
      <Card component="section" aria-labelledby="result-title" data-testid="result-card">
        <CardContent>
          <Typography id="result-title" variant="overline" component="h2" color="text.secondary">
            Clinical Recommendation
          </Typography>
          <RecommendationDetails recommendation={assessment.recommendation} headingLevel={3} />
          <Box sx={{ mt: 3, display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={start}>
              Start New Assessment
            </Button>
            <Button component={RouterLink} to={`/pcp/cases/${assessment.id}`} variant="text">
              View in Case History
            </Button>
          </Box>
        </CardContent>
      </Card>
    ) : (
      <Card component="section" aria-labelledby="no-rec-title" data-testid="no-recommendation-card">
        <CardContent sx={{ textAlign: 'center', py: 5 }}>
          <Typography id="no-rec-title" variant="h2" sx={{ fontSize: '1.4rem', mb: 1 }}>
            {NO_RECOMMENDATION.title}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 560, mx: 'auto' }}>
            {NO_RECOMMENDATION.body}
          </Typography>
          <Button variant="contained" onClick={start}>
            Start New Assessment
          </Button>
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
          <Typography id="question-title" ref={questionHeading} tabIndex={-1} variant="h2" sx={{ fontSize: '1.4rem', mb: 0.5, outline: 'none' }}>
            {q.text || q.display_name}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {q.display_name}
            {q.units ? ` · ${q.units}` : ''}
          </Typography>
          <Box role="group" aria-labelledby="question-title" sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
            {q.options.map((o) => (
              <Button
                key={`${o.label}-${String(o.value)}`}
                variant="outlined"
                size="large"
                onClick={() => answer(o)}
                disabled={!!submitting}
                sx={{ justifyContent: 'flex-start', py: 1.5, textAlign: 'left' }}
                startIcon={submitting === o.label ? <CircularProgress size={16} aria-hidden="true" /> : undefined}
              >
                {o.label}
              </Button>
            ))}
          </Box>
          {q.options.length === 0 && <Alert severity="warning">This question has no answer options. Please contact an administrator.</Alert>}
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
            <FormControlLabel control={<Switch checked={debug} onChange={(e) => setDebug(e.target.checked)} />} label="Debug Mode" sx={{ ml: 1 }} />
          </>
        }
      />
      <Container component="main" maxWidth={debug ? 'xl' : 'md'} sx={{ py: 4 }}>
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: debug ? 'minmax(0, 3fr) minmax(320px, 2fr)' : '1fr' }, alignItems: 'start' }}>
          <Stack spacing={2}>
            {error && (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            )}
            {body}
            <Typography variant="body2" color="text.secondary">
              Recommendations support, and do not replace, clinical judgement.
            </Typography>
          </Stack>
          {debug && <DebugPanel answers={assessment?.answers ?? {}} logs={logs} loading={logsLoading} error={logsError} />}
        </Box>
      </Container>
    </Box>
  );
}
