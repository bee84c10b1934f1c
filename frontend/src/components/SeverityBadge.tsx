import Chip from '@mui/material/Chip';
import ErrorIcon from '@mui/icons-material/Error';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { severityColors } from '../theme';

export type SeverityLevel = keyof typeof severityColors;

/** Unknown or missing severities read as low (spec: low by default for the result icon). */
export function severityLevel(value: unknown): SeverityLevel {
  const v = typeof value === 'string' ? value.toLowerCase() : '';
  return v === 'critical' || v === 'high' || v === 'medium' || v === 'low' ? v : 'low';
}

const LABEL: Record<SeverityLevel, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

export function SeverityIcon({ severity, ...props }: { severity: SeverityLevel } & SvgIconProps) {
  const color = severityColors[severity].border;
  const sx = { color, ...props.sx };
  if (severity === 'high' || severity === 'critical') return <ErrorIcon {...props} sx={sx} />;
  if (severity === 'medium') return <WarningAmberIcon {...props} sx={sx} />;
  return <CheckCircleIcon {...props} sx={sx} />;
}

export function SeverityBadge({ severity, suffix = 'priority' }: { severity: SeverityLevel; suffix?: string }) {
  const c = severityColors[severity];
  return (
    <Chip
      size="small"
      data-severity={severity}
      label={`${LABEL[severity]} ${suffix}`.trim()}
      sx={{ bgcolor: c.bg, color: c.fg, border: `1px solid ${c.border}`, fontWeight: 600 }}
    />
  );
}
