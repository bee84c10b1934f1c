import AccountTreeIcon from '@mui/icons-material/AccountTree';
import type { ResourceProps } from 'react-admin';
import type { RuleRecord } from '../../types';
import RuleDesignerListPage from './RuleDesignerListPage';

export const rules = {
  name: 'rules',
  list: RuleDesignerListPage,
  icon: AccountTreeIcon,
  recordRepresentation: (record: RuleRecord) => record.name,
} satisfies ResourceProps;
