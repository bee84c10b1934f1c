import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CreateButton, DataTable, DeleteButton, EditButton, List, TopToolbar } from 'react-admin';
import type { CdsClientJson } from '@cds/contracts';
import { PageHeader } from '../../components/PageHeader';

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
          sx={{ '& th, & td:first-of-type, & td:nth-of-type(4), & td:nth-of-type(6), & td:last-of-type': { whiteSpace: 'nowrap' } }}
        >
          <DataTable.Col source="name" label="Name" />
          <DataTable.Col source="issuer" label="Issuer" />
          <DataTable.Col label="Key" render={(r) => (r.jwks_url ? `JWKS: ${r.jwks_url}` : 'Public JWK')} />
          <DataTable.Col label="Services" render={(r) => r.allowed_services.join(', ') || 'none'} />
          <DataTable.Col label="FHIR servers" render={(r) => r.allowed_fhir_servers.join(', ') || 'none'} />
          <DataTable.Col
            label="Status"
            render={(r) => <Chip size="small" color={r.is_active ? 'success' : 'default'} label={r.is_active ? 'Active' : 'Inactive'} />}
          />
          <DataTable.Col
            label="Actions"
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
