import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import { Link as RouterLink } from 'react-router-dom';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { errorMessage } from '../../api';
import { PageHeader } from '../components/PageHeader';
import { useAdminQuery } from '../components/useAdminQuery';
import { adminApi } from '../providers/dataProvider';

function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(10rem, max-content) 1fr', columnGap: 3, rowGap: 1 }}>
      {rows.map(([k, v]) => (
        <Box key={k} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ color: 'text.secondary' }}>
            {k}
          </Box>
          <Box component="dd" sx={{ m: 0, fontWeight: 500 }}>
            {v}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

const upDown = (v: string | undefined) =>
  v === 'up' ? <Chip size="small" color="success" label="Up" /> : v === 'down' ? <Chip size="small" color="error" label="Down" /> : '—';

export const DATABASE_MODE: Record<string, string> = {
  embedded: 'Embedded (PGlite, for a one-command start)',
  external: 'External PostgreSQL',
};
export const QUEUE_MODE: Record<string, string> = {
  redis: 'Redis (BullMQ)',
  'in-process': 'In-process runner',
  bullmq: 'Redis (BullMQ)',
};
export const PROVIDER: Record<string, string> = {
  llm: 'Language model, with the built-in wording as fallback',
  'built-in': 'Built-in wording (no language model configured)',
};

function Section({
  title,
  id,
  loading,
  error,
  children,
}: {
  title: string;
  id: string;
  loading: boolean;
  error: unknown;
  children: ReactNode;
}) {
  return (
    <Card component="section" aria-labelledby={id}>
      <CardHeader title={title} slotProps={{ title: { id, component: 'h2', variant: 'h4' } }} />
      <CardContent sx={{ pt: 0 }}>
        {loading ? (
          <Skeleton height={96} />
        ) : error ? (
          <Typography color="error">{errorMessage(error, 'Unavailable right now.')}</Typography>
        ) : (
          children
        )}
      </CardContent>
    </Card>
  );
}

/** Settings: the instance's mode and version, and the question-polishing provider and queue. */
export default function SettingsPage() {
  const health = useAdminQuery(['health'], adminApi.health, { refetchInterval: 30_000 });
  const polish = useAdminQuery(['polish-status'], adminApi.polishStatus, { refetchInterval: 10_000 });
  const h = health.data;
  const p = polish.data;
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto' }}>
      <PageHeader title="Settings" subtitle="How this instance runs. Configuration is set with environment variables (see the README)." />
      <Stack spacing={3}>
        <Section title="Instance" id="instance-title" loading={health.isPending} error={health.error}>
          <Facts
            rows={[
              ['Version', h?.version ?? '—'],
              [
                'Status',
                h ? (
                  h.status === 'ok' ? (
                    <Chip size="small" color="success" label="Healthy" />
                  ) : (
                    <Chip size="small" color="error" label="Degraded" />
                  )
                ) : (
                  '—'
                ),
              ],
              [
                'Database',
                <>
                  {DATABASE_MODE[h?.mode?.database ?? ''] ?? h?.mode?.database ?? '—'} {upDown(h?.database)}
                </>,
              ],
              [
                'Queue',
                <>
                  {QUEUE_MODE[h?.mode?.queue ?? ''] ?? h?.mode?.queue ?? '—'} {upDown(h?.queue)}
                </>,
              ],
            ]}
          />
        </Section>
        <Section title="Question polishing" id="polish-title" loading={polish.isPending} error={polish.error}>
          <Facts
            rows={[
              ['Provider', PROVIDER[p?.provider ?? ''] ?? p?.provider ?? '—'],
              ['Queue driver', QUEUE_MODE[p?.driver ?? ''] ?? p?.driver ?? '—'],
              ['Waiting', String(p?.counts.waiting ?? '—')],
              ['Active', String(p?.counts.active ?? '—')],
              ['Delayed', String(p?.counts.delayed ?? '—')],
              ['Completed', String(p?.counts.completed ?? '—')],
              ['Failed', p?.counts.failed ? <Chip size="small" color="error" label={p.counts.failed} /> : String(p?.counts.failed ?? '—')],
            ]}
          />
        </Section>
        <Section title="EHR integration (CDS Hooks)" id="cds-title" loading={false} error={null}>
          <Typography color="text.secondary" sx={{ mb: 1.5 }}>
            EHRs call the published rule sets through CDS Hooks. Register each EHR, its signing key and the FHIR servers it may name.
          </Typography>
          <Button component={RouterLink} to="/admin/cds-clients" variant="outlined">
            Manage CDS clients
          </Button>
        </Section>
        <Section title="Records in" id="records-title" loading={false} error={null}>
          <Typography color="text.secondary" sx={{ mb: 1.5 }}>
            Panels of patients&apos; records imported as FHIR NDJSON run in the background: follow their progress and what was skipped.
          </Typography>
          <Button component={RouterLink} to="/admin/jobs" variant="outlined">
            Record imports
          </Button>
        </Section>
        <Section title="Quality measures" id="measures-title" loading={false} error={null}>
          <Typography color="text.secondary" sx={{ mb: 1.5 }}>
            CMS122, CMS951 and CMS165 are rule sets of this product, read in the designer and checked against the official CMS test cases;
            measure runs over the whole panel are listed with the record imports.
          </Typography>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <Button component={RouterLink} to="/admin/measures" variant="outlined">
              Measures in the designer
            </Button>
            <Button component={RouterLink} to="/admin/conformance" variant="outlined">
              Measure conformance
            </Button>
            <Button component={RouterLink} to="/admin/jobs" variant="outlined">
              Measure runs
            </Button>
          </Stack>
        </Section>
      </Stack>
    </Box>
  );
}
