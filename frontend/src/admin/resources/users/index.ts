import PeopleIcon from '@mui/icons-material/People';
import type { ResourceProps } from 'react-admin';
import type { UserListItemJson } from '@cds/contracts';
import UserList from './UserList';

export const users = {
  name: 'users',
  list: UserList,
  icon: PeopleIcon,
  recordRepresentation: (record: UserListItemJson) => record.email,
} satisfies ResourceProps;
