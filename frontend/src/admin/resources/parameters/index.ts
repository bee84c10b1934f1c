import TuneIcon from '@mui/icons-material/Tune';
import type { ResourceProps } from 'react-admin';
import type { ParameterRecord } from '../../types';
import ParameterPage from './ParameterPage';

export const parameters = {
  name: 'parameters',
  list: ParameterPage,
  icon: TuneIcon,
  recordRepresentation: (record: ParameterRecord) => record.display_name,
} satisfies ResourceProps;
