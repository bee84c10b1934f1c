import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ListBase, Pagination, useListContext } from 'react-admin';
import { errorMessage } from '../../../api';
import { formatDateTime, formatValue } from '../../../components/format';
import { SearchBox } from '../../components/SearchBox';
import { PARAMETERS } from '../../messages';
import { CHANGE_TYPES, unitDisplay, type ParameterChangeJson } from '@cds/contracts';
import { categoryLabel, dataTypeLabel } from './labels';
import { validationRulesText } from './validationText';

const PERIODS = [
  ['all', 'All Time'],
  ['today', 'Today'],
  ['week', 'This Week'],
  ['month', 'This Month'],
] as const;

const CHANGE_COLOR: Record<string, 'success' | 'primary' | 'error' | 'secondary' | 'warning'> = {
  created: 'success',
  updated: 'primary',
  deleted: 'error',
  activated: 'success',
  deactivated: 'warning',
};

const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  display_name: 'Display name',
  description: 'Description',
  data_type: 'Data type',
  category: 'Category',
  units: 'Units',
  is_required: 'Required',
  is_template: 'Template',
  template_name: 'Template name',
  version: 'Version',
  is_active: 'Active',
  validation_rules: 'Validation rules',
  loinc_code: 'LOINC code',
  question_override: 'Question override',
};

/** A recorded value, shortened: a long description or question must not push the rest off the card. */
export function showValue(v: unknown): string {
  const text = formatValue(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * A recorded field as an admin reads it: the display names of a category and a data type
 * ("Laboratory", "Lab Range", not `labs`, `lab_range`), a unit in its usual form ("mmHg", not the
 * UCUM code stored), validation rules as a sentence. `units` is the parameter's unit on that side.
 */
export function showField(key: string, v: unknown, units?: unknown): string {
  if (v === null || v === undefined || v === '') return formatValue(v);
  if (key === 'category' && typeof v === 'string') return categoryLabel(v);
  if (key === 'data_type' && typeof v === 'string') return dataTypeLabel(v);
  if (key === 'units' && typeof v === 'string') return unitDisplay(v);
  if (key === 'validation_rules') return validationRulesText(v, typeof units === 'string' ? units : null);
  return showValue(v);
}

function Values({ change }: { change: ParameterChangeJson }) {
  const before = change.old_values ?? {};
  const after = change.new_values ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (!keys.length) return null;
  const mode = change.change_type === 'created' ? 'new' : change.change_type === 'deleted' ? 'old' : 'both';
  // An update records only the fields that changed: the unit may be on one side only.
  const unitsBefore = before.units ?? after.units;
  const unitsAfter = after.units ?? before.units;
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        mt: 1,
        display: 'grid',
        gridTemplateColumns: 'minmax(8rem, max-content) 1fr',
        columnGap: 2,
        rowGap: 0.5,
        fontSize: '0.875rem',
      }}
    >
      {keys.map((k) => (
        <Box key={k} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ color: 'text.secondary' }}>
            {FIELD_LABELS[k] ?? k}
          </Box>
          <Box component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
            {mode === 'new' && showField(k, after[k], unitsAfter)}
            {mode === 'old' && showField(k, before[k], unitsBefore)}
            {mode === 'both' && (
              <>
                <Box component="del" sx={{ color: 'error.dark' }} aria-label={`before: ${showField(k, before[k], unitsBefore)}`}>
                  {showField(k, before[k], unitsBefore)}
                </Box>
                {' → '}
                <Box
                  component="ins"
                  sx={{ color: 'success.dark', textDecoration: 'none', fontWeight: 600 }}
                  aria-label={`after: ${showField(k, after[k], unitsAfter)}`}
                >
                  {showField(k, after[k], unitsAfter)}
                </Box>
              </>
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function Filters() {
  const { filterValues, setFilters } = useListContext<ParameterChangeJson>();
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2 }} component="section" aria-label="Filter changes">
      <SearchBox
        placeholder="Search by parameter or changer..."
        value={(filterValues.q as string) ?? ''}
        onSearch={(q) => setFilters({ ...filterValues, q: q.trim() || undefined })}
      />
      <TextField
        select
        size="small"
        label="Change type"
        value={(filterValues.change_type as string) ?? 'all'}
        onChange={(e) => setFilters({ ...filterValues, change_type: e.target.value === 'all' ? undefined : e.target.value })}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="all">All Types</MenuItem>
        {CHANGE_TYPES.map((t) => (
          <MenuItem key={t} value={t}>
            {t[0].toUpperCase() + t.slice(1)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Period"
        value={(filterValues.period as string) ?? 'all'}
        onChange={(e) => setFilters({ ...filterValues, period: e.target.value === 'all' ? undefined : e.target.value })}
        sx={{ minWidth: 160 }}
      >
        {PERIODS.map(([v, label]) => (
          <MenuItem key={v} value={v}>
            {label}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

function Entries() {
  const { data, isPending, error, total } = useListContext<ParameterChangeJson>();
  if (isPending) {
    return (
      <Stack spacing={1} role="status" aria-label="Loading changes">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={72} />
        ))}
      </Stack>
    );
  }
  if (error) return <Typography color="error">{errorMessage(error, 'The change history could not be loaded.')}</Typography>;
  if (!data?.length) return <Typography color="text.secondary">{PARAMETERS.noChanges}</Typography>;
  return (
    <>
      <Stack component="ol" spacing={1.5} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label="Parameter changes">
        {data.map((c) => (
          <Card component="li" key={c.id}>
            <CardContent>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Chip size="small" color={CHANGE_COLOR[c.change_type] ?? 'secondary'} label={c.change_type} />
                <Typography sx={{ fontWeight: 600 }}>{c.parameter_name}</Typography>
                <Typography variant="body2" color="text.secondary" sx={{ ml: 'auto' }}>
                  {formatDateTime(c.changed_at)} · {c.changed_by_email ?? 'unknown user'}
                </Typography>
              </Box>
              {c.change_reason && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  Reason: {c.change_reason}
                </Typography>
              )}
              <Values change={c} />
            </CardContent>
          </Card>
        ))}
      </Stack>
      {(total ?? 0) > data.length && <Pagination rowsPerPageOptions={[10, 25, 50]} />}
    </>
  );
}

export function ChangeHistoryTab() {
  return (
    <ListBase resource="parameter-changes" perPage={25} sort={{ field: 'changed_at', order: 'DESC' }} disableSyncWithLocation>
      <Filters />
      <Entries />
    </ListBase>
  );
}
