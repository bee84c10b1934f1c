import { BooleanInput, CheckboxGroupInput, required, TextInput } from 'react-admin';
import { CDS_SERVICE_IDS } from '@cds/contracts';

/** A JWK is edited as JSON text; blank means none (the JWKS URL is used instead). */
export const jwkFormat = (v: unknown) => (v && typeof v === 'object' ? JSON.stringify(v, null, 2) : ((v as string | null) ?? ''));
export const jwkParse = (text: string): unknown => {
  if (!text.trim()) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};
export const validJwk = (v: unknown) =>
  typeof v === 'string' ? 'The public JWK must be JSON, e.g. { "kty": "EC", "crv": "P-384", "x": "…", "y": "…" }' : undefined;

/** One FHIR base URL per line; lines are kept as typed while editing and cleaned on save (`cleaned`). */
export const linesFormat = (v: unknown) => (Array.isArray(v) ? v.join('\n') : '');
export const linesParse = (text: string) => text.split('\n');

/** The record as the API takes it: FHIR servers trimmed, blank lines dropped. */
export const cleaned = <T extends { allowed_fhir_servers?: unknown }>(data: T): T => ({
  ...data,
  allowed_fhir_servers: Array.isArray(data.allowed_fhir_servers)
    ? data.allowed_fhir_servers.map((l) => String(l).trim()).filter(Boolean)
    : [],
});

/** A new client may call patient-view unless unticked: one saved able to call nothing is useless. */
const DEFAULT_SERVICES = ['patient-view'];
export const atLeastOneService = (v: unknown) =>
  Array.isArray(v) && v.length > 0 ? undefined : 'Choose at least one service: a client allowed none could call nothing';

const blankIsNull = (v: string) => (v.trim() ? v.trim() : null);

/** The fields of a CDS client, shared by Create and Edit. */
export function CdsClientInputs() {
  return (
    <>
      <TextInput sx={{ mb: 1.5 }} source="name" label="Name" validate={required()} fullWidth helperText="e.g. the EHR's product name" />
      <TextInput
        sx={{ mb: 1.5 }}
        source="issuer"
        label="Issuer (iss)"
        validate={required()}
        fullWidth
        helperText="The iss of its client JWTs"
      />
      <TextInput
        sx={{ mb: 1.5 }}
        source="jwks_url"
        label="JWKS URL"
        parse={blankIsNull}
        fullWidth
        helperText="Its public keys (or give one public JWK below)"
      />
      <TextInput
        sx={{ mb: 1.5 }}
        source="jwk"
        label="Public JWK"
        format={jwkFormat}
        parse={jwkParse}
        validate={validJwk}
        multiline
        minRows={3}
        fullWidth
        helperText="One public RSA or EC key as JSON (no private key material)"
      />
      <CheckboxGroupInput
        source="allowed_services"
        label="Allowed services"
        choices={CDS_SERVICE_IDS.map((id) => ({ id, name: id }))}
        defaultValue={DEFAULT_SERVICES}
        validate={atLeastOneService}
      />
      <TextInput
        sx={{ mb: 1.5 }}
        source="allowed_fhir_servers"
        label="Allowed FHIR servers"
        format={linesFormat}
        parse={linesParse}
        multiline
        minRows={2}
        fullWidth
        helperText="FHIR base URLs the EHR may send as fhirServer, one per line. Any other is refused and never called."
      />
      <BooleanInput source="is_active" label="Active" defaultValue={true} />
    </>
  );
}
