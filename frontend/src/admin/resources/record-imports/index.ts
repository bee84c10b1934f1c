import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import type { ResourceProps } from 'react-admin';
import RecordImportList from './RecordImportList';

/** Records in (issue 21): `POST /api/fhir/$import` jobs, at `/api/jobs`; reached from Settings. */
export const recordImports = {
  name: 'jobs',
  list: RecordImportList,
  icon: CloudUploadIcon,
  options: { label: 'Record imports' },
} satisfies ResourceProps;
