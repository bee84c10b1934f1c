import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { unitDisplay } from '@cds/contracts';
import { patientLabel } from '../components/format';
import { prefillWhen, type Prefill } from './prefill';

/** Before an assessment: what will happen, and the EHR's values waiting to be offered. */
export function AssessmentReadyCard({ prefill, onStart }: { prefill: Prefill | null; onStart: () => void }) {
  const pendingPrefill = prefill?.assessment_id === null ? prefill.values : [];
  return (
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
        <Button variant="contained" size="large" onClick={onStart}>
          Start Assessment
        </Button>
      </CardContent>
    </Card>
  );
}
