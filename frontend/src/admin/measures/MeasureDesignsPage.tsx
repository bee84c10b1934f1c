import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import type { MeasureDesignSummaryJson } from '@cds/contracts';
import { errorMessage } from '../../api';
import { PageHeader } from '../components/PageHeader';
import { useAdminQuery } from '../components/useAdminQuery';
import { adminApi } from '../providers/dataProvider';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function findingsLabel(f: { error: number; warning: number; info: number }): string {
  const total = f.error + f.warning + f.info;
  if (!total) return 'No analysis findings';
  return [f.error && plural(f.error, 'error'), f.warning && plural(f.warning, 'warning'), f.info && plural(f.info, 'note')]
    .filter(Boolean)
    .join(', ');
}

function MeasureCard({ m }: { m: MeasureDesignSummaryJson }) {
  return (
    <Card variant="outlined" component="li" sx={{ listStyle: 'none' }} aria-label={`${m.identifier} · ${m.title}`}>
      <CardActionArea component={RouterLink} to={`/admin/measures/${encodeURIComponent(m.id)}`}>
        <CardContent>
          <Typography component="h2" variant="h6">
            {m.identifier} · {m.title}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {plural(m.rule_count, 'population rule')} over {plural(m.criterion_count, 'record criterion', 'record criteria')}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Chip size="small" variant="outlined" label={`Version ${m.version}`} sx={{ fontFamily: 'monospace', maxWidth: '100%' }} />
            <Chip
              size="small"
              color={m.published_version.endsWith('(local)') ? 'warning' : 'default'}
              label={`Published: version ${m.published_version}`}
            />
            {m.changed_since_shipped && !m.published_version.endsWith('(local)') && (
              <Chip size="small" color="warning" label="Value sets changed since shipped" />
            )}
            {m.has_draft && <Chip size="small" color="info" label="Draft saved" />}
            <Chip size="small" color={m.findings.error ? 'error' : 'default'} label={findingsLabel(m.findings)} />
            {m.vignettes.total ? (
              <Chip
                size="small"
                color={m.vignettes.agreed === m.vignettes.total ? 'success' : 'error'}
                label={`${m.vignettes.agreed} of ${m.vignettes.total} official cases agree${m.published_version.endsWith('(local)') ? ' (version 1 as shipped)' : ''}`}
              />
            ) : (
              <Chip size="small" label="No official cases installed" />
            )}
          </Stack>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** The quality measures, each a rule set of the product's own model: the published version of each, and whether a draft is saved. */
export default function MeasureDesignsPage() {
  const list = useAdminQuery(['measure-designs'], adminApi.measureDesigns);
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <PageHeader
        title="Quality measures"
        subtitle="CMS122, CMS951 and CMS165 as rule sets of this product: their populations, record criteria, version, analysis and the official test cases."
      />
      {list.isPending ? (
        <Skeleton height={240} />
      ) : list.error ? (
        <Alert severity="error">{errorMessage(list.error, 'The measures are unavailable right now.')}</Alert>
      ) : (
        <Stack component="ul" spacing={2} sx={{ m: 0, p: 0 }} aria-label="Quality measures">
          {list.data.map((m) => (
            <MeasureCard key={m.id} m={m} />
          ))}
        </Stack>
      )}
    </Box>
  );
}
