import HowToRegIcon from '@mui/icons-material/HowToReg';
import type { ResourceProps } from 'react-admin';
import type { ApprovalRecord } from '../../types';
import ApprovalsPage from './ApprovalsPage';

export const approvals = {
  name: 'approvals',
  list: ApprovalsPage,
  icon: HowToRegIcon,
  recordRepresentation: (record: ApprovalRecord) => record.email,
} satisfies ResourceProps;
