import type { Ref } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import {
  NOT_AVAILABLE,
  unitDisplay,
  type AnswerOptionJson,
  type AssessmentJson,
  type CdsPrefillValue,
  type QuestionJson,
} from '@cds/contracts';
import { patientLabel } from '../components/format';
import { NumericAnswerField, type TypedAnswer } from './NumericAnswerField';
import { prefillNote, type Prefill } from './prefill';
import { bandAskedAgain, questionOptions, TYPED_ANSWER_KEY } from './questionOptions';

export interface QuestionCardProps {
  assessment: AssessmentJson;
  question: QuestionJson;
  prefill: Prefill | null;
  /** The busy control: an option's label, TYPED_ANSWER_KEY for the typed value, null when idle. */
  submitting: string | null;
  typedError: string | null;
  /** An option chosen; `offeredOne` when it is the value offered from the record. */
  onChoose: (option: AnswerOptionJson, offeredOne: boolean) => void;
  onTyped: (answer: TypedAnswer) => void;
  onRestart: () => void;
  headingRef: Ref<HTMLHeadingElement>;
}

/** The current question: a typed value and/or its ranges, Not available, and the EHR's value offered to confirm. */
export function QuestionCard({
  assessment,
  question: q,
  prefill,
  submitting,
  typedError,
  onChoose,
  onTyped,
  onRestart,
  headingRef,
}: QuestionCardProps) {
  const numeric = q.input ? (q as QuestionJson & { input: NonNullable<QuestionJson['input']> }) : null;
  const options = questionOptions(q);
  const bands = options.filter((o) => o.value !== NOT_AVAILABLE);
  const unitShown = q.input?.unit_display ?? unitDisplay(q.units);
  const askedAgain = bandAskedAgain(assessment, q);
  const answered = assessment.answer_details?.length ?? Object.keys(assessment.answers ?? {}).length;
  // The EHR's value for this question, offered for the clinician to confirm.
  const offered: CdsPrefillValue | undefined =
    prefill?.assessment_id === assessment.id ? prefill.values.find((v) => v.parameter_id === q.parameter_id) : undefined;
  const offeredOption = offered && !numeric ? options.find((o) => JSON.stringify(o.value) === JSON.stringify(offered.value)) : undefined;

  return (
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
        <Typography id="question-title" ref={headingRef} tabIndex={-1} variant="h2" sx={{ fontSize: '1.4rem', mb: 0.5, outline: 'none' }}>
          {q.text || q.display_name}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2.5 }}>
          {q.display_name}
          {unitShown ? ` · ${unitShown}` : ''}
        </Typography>
        {askedAgain && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="exact-value-needed">
            The band you chose ({askedAgain}) includes a threshold a rule uses, so it cannot decide that rule. Please enter the exact value.
          </Alert>
        )}
        {numeric && (
          <NumericAnswerField
            key={`${q.parameter_id}:${assessment.step}`}
            question={numeric}
            onSubmit={onTyped}
            busy={submitting === TYPED_ANSWER_KEY}
            serverError={typedError}
            prefill={offered && typeof offered.value === 'number' ? { ...offered, value: offered.value } : undefined}
            prefillOrigin={prefill?.origin}
          />
        )}
        {offered && offeredOption && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="prefill-note">
            {prefillNote(offered, prefill?.origin)}: {offeredOption.label}. Choose it to confirm, or choose another answer.
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
                onClick={() => onChoose(o, o === offeredOption)}
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
          <Button color="secondary" onClick={onRestart} disabled={!!submitting}>
            Restart Assessment
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
