import Box from '@mui/material/Box';
import { unitDisplay } from '@cds/contracts';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import AddIcon from '@mui/icons-material/Add';
import type { ParameterJson } from '@cds/contracts';
import { CATEGORY_ICONS, dataTypeLabel, describeParameter, hasValidationRules, questionSource, recordReading } from './labels';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box component="div" sx={{ display: 'flex', gap: 1, fontSize: '0.875rem' }}>
      <Box component="dt" sx={{ color: 'text.secondary', minWidth: 72 }}>
        {label}
      </Box>
      <Box component="dd" sx={{ m: 0, fontWeight: 500, wordBreak: 'break-word' }}>
        {children}
      </Box>
    </Box>
  );
}

export function ParameterCard({
  parameter: p,
  onEdit,
  onClone,
  onUseTemplate,
}: {
  parameter: ParameterJson;
  onEdit?: (p: ParameterJson) => void;
  onClone?: (p: ParameterJson) => void;
  onUseTemplate?: (p: ParameterJson) => void;
}) {
  const Icon = CATEGORY_ICONS[p.category] ?? CATEGORY_ICONS.other;
  const titleId = `param-${p.id}`;
  return (
    <Card component="article" aria-labelledby={titleId} sx={{ display: 'flex', flexDirection: 'column' }} data-testid="parameter-card">
      <CardContent sx={{ flex: 1 }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', mb: 1 }}>
          <Box sx={{ p: 1, borderRadius: 1.5, bgcolor: 'primary.light', color: 'primary.main', display: 'flex' }} aria-hidden="true">
            <Icon fontSize="small" />
          </Box>
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography id={titleId} component="h3" variant="h5" sx={{ wordBreak: 'break-word' }}>
              {p.display_name}
            </Typography>
            <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}>
              {p.is_template && <Chip size="small" color="primary" label="Template" />}
              <Chip size="small" variant="outlined" label={dataTypeLabel(p.data_type)} />
              {hasValidationRules(p) && <Chip size="small" color="secondary" variant="outlined" label="Complex Rules" />}
            </Box>
          </Box>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {describeParameter(p)}
        </Typography>
        <Box component="dl" sx={{ m: 0, display: 'grid', gap: 0.5 }}>
          <Row label="Name">
            <Box component="code" sx={{ fontSize: '0.85rem' }}>
              {p.name}
            </Box>
          </Row>
          <Row label="Units">{p.units ? unitDisplay(p.units) : '—'}</Row>
          <Row label="Required">{p.is_required ? 'Yes' : 'No'}</Row>
          <Row label="Version">v{p.version}</Row>
          {recordReading(p) && <Row label="From the record">{recordReading(p)}</Row>}
        </Box>
        {!p.is_template && p.question_text && (
          <Box sx={{ mt: 1.5, p: 1, borderRadius: 1, bgcolor: 'background.default' }}>
            <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
              “{p.question_text}”
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {questionSource(p)}
            </Typography>
          </Box>
        )}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        {onUseTemplate && (
          <Button
            size="small"
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => onUseTemplate(p)}
            aria-label={`Use Template ${p.display_name}`}
          >
            Use Template
          </Button>
        )}
        {onEdit && (
          <Button size="small" variant="outlined" startIcon={<EditIcon />} onClick={() => onEdit(p)} aria-label={`Edit ${p.display_name}`}>
            Edit
          </Button>
        )}
        {onClone && (
          <Button
            size="small"
            variant="outlined"
            startIcon={<ContentCopyIcon />}
            onClick={() => onClone(p)}
            aria-label={`Clone ${p.display_name}`}
          >
            Clone
          </Button>
        )}
      </CardActions>
    </Card>
  );
}
