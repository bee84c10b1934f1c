import { useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ScienceIcon from '@mui/icons-material/Science';
import EditIcon from '@mui/icons-material/Edit';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { formatDate } from '../../../components/format';
import { ADMIN_TOASTS } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { RuleJson } from '@cds/contracts';

/** One rule of the selected set, with Test, Edit, Clone and Delete. */
export function RuleItem({ rule, onTest, onDelete }: { rule: RuleJson; onTest: () => void; onDelete: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [cloning, setCloning] = useState(false);
  const clone = async () => {
    setCloning(true);
    try {
      await adminApi.cloneRule(rule.id);
      await queryClient.invalidateQueries({ queryKey: ['rules'] });
      void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
      toast(ADMIN_TOASTS.ruleCloned(rule.name));
    } catch (e) {
      console.error('Clone failed', e);
      toast(ADMIN_TOASTS.ruleCloneFailed);
    } finally {
      setCloning(false);
    }
  };
  const base = `/admin/rules/${encodeURIComponent(rule.id)}`;
  return (
    <Box component="li" data-testid="rule-item" sx={{ listStyle: 'none', p: 1.5, borderRadius: 1.5, border: 1, borderColor: 'divider' }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Link component={RouterLink} to={`${base}/show`} sx={{ fontWeight: 600 }}>
          {rule.name}
        </Link>
        <Chip
          size="small"
          color={rule.is_active ? 'success' : 'default'}
          variant="outlined"
          label={rule.is_active ? 'Active' : 'Inactive'}
        />
        <Box sx={{ ml: 'auto', display: 'flex' }}>
          <Tooltip title="Test Rule">
            <IconButton size="small" aria-label={`Test Rule ${rule.name}`} onClick={onTest}>
              <ScienceIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title="Edit Rule">
            <IconButton size="small" aria-label={`Edit Rule ${rule.name}`} component={RouterLink} to={base}>
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title="Clone Rule">
            <span>
              <IconButton size="small" aria-label={`Clone Rule ${rule.name}`} onClick={() => void clone()} disabled={cloning}>
                <ContentCopyIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title="Delete Rule">
            <IconButton size="small" aria-label={`Delete Rule ${rule.name}`} onClick={onDelete} color="error">
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
      </Box>
      {rule.description && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {rule.description}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, mt: 0.5 }}>
        <Typography variant="body2" color="text.secondary">
          Priority: {rule.priority}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDate(rule.created_at)}
        </Typography>
      </Box>
    </Box>
  );
}
