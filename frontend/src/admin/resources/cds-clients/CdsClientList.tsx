import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CreateButton, DataTable, DeleteButton, EditButton, List, TopToolbar } from 'react-admin';
import type { CdsClientJson } from '@cds/contracts';
import { PageHeader } from '../../components/PageHeader';
import { stackedOnPhone } from '../../../components/stackedTable';

const COLUMNS = ['Name', 'Issuer', 'Key', 'Services', 'FHIR servers', 'Status', 'Actions'] as const;
const [COL_NAME, COL_ISSUER, COL_KEY, COL_SERVICES, COL_FHIR, COL_STATUS, COL_ACTIONS] = COLUMNS;
/** A stacked list on phones (each client a block of labelled lines); short columns unbroken on wider screens. */
const TABLE_SX = {
  ...stackedOnPhone(COLUMNS),
  '@media (min-width: 600px)': {
    '& th, & td:first-of-type, & td:nth-of-type(4), & td:nth-of-type(6), & td:last-of-type': { whiteSpace: 'nowrap' },
  },
};

function Actions() {
  return (
    <TopToolbar>
      <CreateButton label="Register CDS client" />
    </TopToolbar>
  );
}

/** The EHRs allowed to call the CDS Hooks services, with the key each signs with. */
export default function CdsClientList() {
  return (
    <>
      <PageHeader
        title="CDS Clients"
        subtitle="EHRs that may call the CDS Hooks services: the issuer of their client JWTs, their public key, and what they may call."
      />
      <List<CdsClientJson> actions={<Actions />} title="CDS Clients" pagination={false} empty={false}>
        <DataTable<CdsClientJson>
          bulkActionButtons={false}
          empty={
            <Typography color="text.secondary" sx={{ p: 2 }}>
              No EHR is registered yet. Register one to let it call the CDS Hooks services.
            </Typography>
          }
          rowClick="edit"
          sx={TABLE_SX}
        >
          <DataTable.Col source="name" label={COL_NAME} />
          <DataTable.Col source="issuer" label={COL_ISSUER} />
          <DataTable.Col label={COL_KEY} render={(r) => (r.jwks_url ? `JWKS: ${r.jwks_url}` : 'Public JWK')} />
          <DataTable.Col label={COL_SERVICES} render={(r) => r.allowed_services.join(', ') || 'none'} />
          <DataTable.Col label={COL_FHIR} render={(r) => r.allowed_fhir_servers.join(', ') || 'none'} />
          <DataTable.Col
            label={COL_STATUS}
            render={(r) => <Chip size="small" color={r.is_active ? 'success' : 'default'} label={r.is_active ? 'Active' : 'Inactive'} />}
          />
          <DataTable.Col
            label={COL_ACTIONS}
            render={() => (
              <Stack direction="row" spacing={1}>
                <EditButton />
                <DeleteButton mutationMode="pessimistic" confirmTitle="Remove this CDS client?" />
              </Stack>
            )}
          />
        </DataTable>
      </List>
    </>
  );
}
