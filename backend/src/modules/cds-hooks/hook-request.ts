import { DomainError } from '../../common/errors';

export const PATIENT_VIEW = 'patient-view';

/** A service id this app does not offer (404): said only to a verified client. */
export const unknownService = (id: string) =>
  new DomainError('unknown_service', `No CDS service ${id.slice(0, 100)}; see GET /api/cds-services`);

/** A patient-view hook request (CDS Hooks 2.0), checked. */
export interface PatientViewRequest {
  hook: 'patient-view';
  hookInstance: string;
  fhirServer: string | null;
  /** Never logged or stored: used only for the fetches of this request. */
  fhirAuthorization: { access_token: string; token_type: string } | null;
  context: { userId: string; patientId: string; encounterId?: string };
  prefetch: Record<string, unknown>;
}

/** FHIR id: 1 to 64 of [A-Za-z0-9-.]. */
const FHIR_ID = /^[A-Za-z0-9.-]{1,64}$/;
const USER_REF = /^(Practitioner|PractitionerRole|Patient|RelatedPerson)\/[A-Za-z0-9.-]{1,64}$/;

const bad = (field: string, message: string) => new DomainError('invalid_hook_request', message, [{ field, message }]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parsePatientViewRequest(body: unknown, serviceHook: string): PatientViewRequest {
  if (!isObject(body)) throw bad('body', 'A hook request must be a JSON object');
  const { hook, hookInstance, fhirServer, fhirAuthorization, context, prefetch } = body;
  if (typeof hook !== 'string' || hook === '') throw bad('hook', 'hook is required');
  if (hook !== serviceHook)
    throw new DomainError('unknown_hook', `This service answers the ${serviceHook} hook, not ${hook.slice(0, 100)}`, [
      { field: 'hook', message: `hook must be ${serviceHook}` },
    ]);
  if (typeof hookInstance !== 'string' || hookInstance === '' || hookInstance.length > 200)
    throw bad('hookInstance', 'hookInstance is required (a UUID for this hook call)');

  let server: string | null = null;
  if (fhirServer !== undefined && fhirServer !== null) {
    if (typeof fhirServer !== 'string' || !/^https?:\/\/[^\s]+$/.test(fhirServer) || fhirServer.length > 2000)
      throw bad('fhirServer', 'fhirServer must be the http(s) base URL of the FHIR server');
    server = fhirServer.replace(/\/+$/, '');
  }
  let auth: PatientViewRequest['fhirAuthorization'] = null;
  if (fhirAuthorization !== undefined && fhirAuthorization !== null) {
    if (!server) throw bad('fhirAuthorization', 'fhirAuthorization is given without fhirServer');
    if (!isObject(fhirAuthorization) || typeof fhirAuthorization.access_token !== 'string' || fhirAuthorization.access_token === '')
      throw bad('fhirAuthorization', 'fhirAuthorization needs access_token, token_type, expires_in, scope and subject');
    if (fhirAuthorization.token_type !== 'Bearer') throw bad('fhirAuthorization.token_type', 'fhirAuthorization.token_type must be Bearer');
    if (/[\r\n]/.test(fhirAuthorization.access_token)) throw bad('fhirAuthorization.access_token', 'access_token is malformed');
    auth = { access_token: fhirAuthorization.access_token, token_type: 'Bearer' };
  }

  if (!isObject(context)) throw bad('context', 'context is required (userId and patientId for patient-view)');
  const { userId, patientId, encounterId } = context;
  if (typeof userId !== 'string' || !USER_REF.test(userId))
    throw bad('context.userId', 'context.userId must be a reference such as Practitioner/123');
  if (typeof patientId !== 'string' || !FHIR_ID.test(patientId)) throw bad('context.patientId', 'context.patientId must be a FHIR id');
  if (encounterId !== undefined && (typeof encounterId !== 'string' || !FHIR_ID.test(encounterId)))
    throw bad('context.encounterId', 'context.encounterId must be a FHIR id');

  if (prefetch !== undefined && prefetch !== null && !isObject(prefetch))
    throw bad('prefetch', 'prefetch must be an object of prefetch keys');
  return {
    hook: 'patient-view',
    hookInstance,
    fhirServer: server,
    fhirAuthorization: auth,
    context: { userId, patientId, ...(encounterId ? { encounterId } : {}) },
    prefetch: (prefetch as Record<string, unknown>) ?? {},
  };
}
