import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { getAssessment } from '../api/endpoints';
import { FindingsResult } from '../components/findings/FindingsResult';
import { useAsync } from '../components/useAsync';
import { AnswersSection, CaseDetailFrame, CaseFacts, CaseSection, NotCompleted } from './CaseDetailParts';
import { CaseStatusChip } from './CaseList';

export default function CaseDetail() {
  const { id = '' } = useParams();
  const { data, error, loading, reload } = useAsync(() => getAssessment(id), [id]);
  const answers = data?.answer_details ?? [];

  return (
    <CaseDetailFrame title="Case details" noun="case" loading={loading} error={error} reload={reload}>
      {data && (
        <Stack spacing={3}>
          <CaseFacts record={data} status={<CaseStatusChip assessment={data} />} />
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
        </Stack>
      )}
    </CaseDetailFrame>
  );
}
