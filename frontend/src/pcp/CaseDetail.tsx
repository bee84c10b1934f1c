import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { getAssessment } from '../api/endpoints';
import Typography from '@mui/material/Typography';
import { ResultHistories } from '../components/charts/ResultHistories';
import { FindingsResult } from '../components/findings/FindingsResult';
import Box from '@mui/material/Box';
import { patientIdText } from '../components/format';
import { useAsync } from '../components/useAsync';
import { AnswersSection, CaseDetailFrame, CaseFacts, CaseSection, Fact, NotCompleted } from './CaseDetailParts';
import { CaseStatusChip } from './CaseList';

export default function CaseDetail() {
  const { id = '' } = useParams();
  const { data, error, loading, reload } = useAsync(() => getAssessment(id), [id]);
  const answers = data?.answer_details ?? [];

  return (
    <CaseDetailFrame title="Case details" noun="case" loading={loading} error={error} reload={reload}>
      {data && (
        <Stack spacing={3}>
          <CaseFacts record={data} status={<CaseStatusChip assessment={data} />}>
            {data.patient && (
              <Fact label={data.patient.source === 'record' ? 'Patient (values from the record)' : 'Patient (values from the EHR)'}>
                <Box data-testid="case-patient">
                  {data.patient.name ?? patientIdText(data.patient)}
                  {data.patient.name && (
                    <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                      {patientIdText(data.patient)}
                    </Typography>
                  )}
                </Box>
              </Fact>
            )}
          </CaseFacts>
          <CaseSection id="case-result-title" title="Result" gap={2}>
            {data.is_completed ? (
              <FindingsResult result={data} answers={answers} headingLevel="h3" />
            ) : (
              <NotCompleted
                text="This assessment was not completed."
                action={
                  <Button component={RouterLink} to="/clinical-form" state={{ resume: data.id }} variant="outlined">
                    Continue assessment
                  </Button>
                }
              />
            )}
          </CaseSection>
          <AnswersSection id="case-answers-title" answers={answers} />
          {data.patient && (data.histories ?? []).length > 0 && (
            <CaseSection id="case-histories-title" title="Results over time" gap={0.5}>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                As {data.patient.source === 'record' ? 'the record' : 'the EHR'} gave them when the values were loaded for this assessment;
                later results are not shown.
              </Typography>
              {/* A plot as wide as the page would blow its labels up on a desk screen. */}
              <Box sx={{ maxWidth: 720 }}>
                <ResultHistories histories={data.histories!} />
              </Box>
            </CaseSection>
          )}
        </Stack>
      )}
    </CaseDetailFrame>
  );
}
