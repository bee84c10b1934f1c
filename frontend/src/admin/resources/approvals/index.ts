import HowToRegIcon from '@mui/icons-material/HowToReg';
import type { ResourceProps } from 'react-admin';
import type { ApprovalJson } from '@cds/contracts';
import ApprovalsPage from './ApprovalsPage';

export const approvals = {
  name: 'approvals',
  list: ApprovalsPage,
  icon: HowToRegIcon,
  recordRepresentation: (record: ApprovalJson) => record.email,
} satisfies ResourceProps;
