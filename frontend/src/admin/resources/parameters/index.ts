import TuneIcon from '@mui/icons-material/Tune';
import type { ResourceProps } from 'react-admin';
import type { ParameterJson } from '@cds/contracts';
import ParameterPage from './ParameterPage';

export const parameters = {
  name: 'parameters',
  list: ParameterPage,
  icon: TuneIcon,
  recordRepresentation: (record: ParameterJson) => record.display_name,
} satisfies ResourceProps;
