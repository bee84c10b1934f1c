import type { Ref } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import type { AssessmentJson } from '@cds/contracts';
import { patientLabel } from '../components/format';
import { FindingsResult } from '../components/findings/FindingsResult';
import { findingsOf } from '../components/findings/clinicalFormat';

/** A completed assessment: its findings, most urgent first, and the way to the next one. */
export function AssessmentResultCard({
  assessment,
  onStart,
  headingRef,
}: {
  assessment: AssessmentJson;
  onStart: () => void;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const findings = findingsOf(assessment);
  return (
    <Card component="section" aria-labelledby="result-title" data-testid="result-card">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="result-title" ref={headingRef} tabIndex={-1} variant="h2" sx={{ fontSize: '1.4rem', mb: 0.5, outline: 'none' }}>
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
              <Button variant="contained" onClick={onStart}>
                Start New Assessment
              </Button>
            }
          />
        </Box>
        {findings.length > 0 && (
          <Box sx={{ mt: 3, display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={onStart}>
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
}
