import AccountTreeIcon from '@mui/icons-material/AccountTree';
import type { ResourceProps } from 'react-admin';
import { RuleCreate, RuleEdit, RuleView } from '../../rule-designer/RuleDesigner';
import type { RuleJson } from '@cds/contracts';
import RuleDesignerListPage from './RuleDesignerListPage';

/** /admin/rules: the list page; /admin/rules/create, /:id and /:id/show: the designer's three modes. */
export const rules = {
  name: 'rules',
  list: RuleDesignerListPage,
  create: RuleCreate,
  edit: RuleEdit,
  show: RuleView,
  icon: AccountTreeIcon,
  recordRepresentation: (record: RuleJson) => record.name,
} satisfies ResourceProps;
