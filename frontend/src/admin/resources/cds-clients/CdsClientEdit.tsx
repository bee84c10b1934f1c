import { Create, Edit, SimpleForm, useNotify, useRedirect } from 'react-admin';
import { PageHeader } from '../../components/PageHeader';
import { CdsClientInputs, cleaned } from './CdsClientInputs';

export function CdsClientCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = () => {
    notify('CDS client registered', { type: 'success' });
    redirect('list', 'cds-clients');
  };
  return (
    <>
      <PageHeader
        title="Register CDS client"
        subtitle="An EHR that may call the CDS Hooks services: the issuer of its client JWTs, its public key, and what it may call."
      />
      <Create title="Register CDS client" transform={cleaned} mutationOptions={{ onSuccess }}>
        <SimpleForm>
          <CdsClientInputs />
        </SimpleForm>
      </Create>
    </>
  );
}

export function CdsClientEdit() {
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = () => {
    notify('CDS client saved', { type: 'success' });
    redirect('list', 'cds-clients');
  };
  return (
    <>
      <PageHeader title="Edit CDS client" />
      <Edit title="Edit CDS client" mutationMode="pessimistic" transform={cleaned} mutationOptions={{ onSuccess }}>
        <SimpleForm>
          <CdsClientInputs />
        </SimpleForm>
      </Edit>
    </>
  );
}
