import Chip from '@mui/material/Chip';
import ErrorIcon from '@mui/icons-material/Error';
import ReportIcon from '@mui/icons-material/Report';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import InfoIcon from '@mui/icons-material/Info';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { severityColors } from '../theme';

export type SeverityLevel = keyof typeof severityColors;

/** Unknown or missing severities read as low (spec: low by default for the result icon). */
export function severityLevel(value: unknown): SeverityLevel {
  const v = typeof value === 'string' ? value.toLowerCase() : '';
  return v === 'critical' || v === 'high' || v === 'medium' || v === 'low' ? v : 'low';
}

export const SEVERITY_LABEL: Record<SeverityLevel, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

/**
 * One icon per severity, so the level never rests on colour alone: critical (octagon), high
 * (circle), medium (triangle), low (info). A green tick would read as "all clear", which a
 * low-severity finding is not.
 */
export function SeverityIcon({ severity, ...props }: { severity: SeverityLevel } & SvgIconProps) {
  const color = severityColors[severity].border;
  const sx = { color, ...props.sx };
  if (severity === 'critical') return <ReportIcon {...props} sx={sx} />;
  if (severity === 'high') return <ErrorIcon {...props} sx={sx} />;
  if (severity === 'medium') return <WarningAmberIcon {...props} sx={sx} />;
  return <InfoIcon {...props} sx={sx} />;
}

export function SeverityBadge({ severity, suffix = 'severity' }: { severity: SeverityLevel; suffix?: string }) {
  const c = severityColors[severity];
  return (
    <Chip
      size="small"
      data-severity={severity}
      label={`${SEVERITY_LABEL[severity]} ${suffix}`.trim()}
      sx={{ bgcolor: c.bg, color: c.fg, border: `1px solid ${c.border}`, fontWeight: 600 }}
    />
  );
}
