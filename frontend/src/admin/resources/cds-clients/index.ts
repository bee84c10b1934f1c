import HubIcon from '@mui/icons-material/Hub';
import type { ResourceProps } from 'react-admin';
import type { CdsClientJson } from '@cds/contracts';
import { CdsClientCreate, CdsClientEdit } from './CdsClientEdit';
import CdsClientList from './CdsClientList';

/** EHRs registered to call the CDS Hooks services (issue 11); reached from Settings. */
export const cdsClients = {
  name: 'cds-clients',
  list: CdsClientList,
  create: CdsClientCreate,
  edit: CdsClientEdit,
  icon: HubIcon,
  recordRepresentation: (record: CdsClientJson) => record.name,
} satisfies ResourceProps;
