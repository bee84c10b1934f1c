import PeopleIcon from '@mui/icons-material/People';
import type { ResourceProps } from 'react-admin';
import type { UserRecord } from '../../types';
import UserList from './UserList';

export const users = {
  name: 'users',
  list: UserList,
  icon: PeopleIcon,
  recordRepresentation: (record: UserRecord) => record.email,
} satisfies ResourceProps;
