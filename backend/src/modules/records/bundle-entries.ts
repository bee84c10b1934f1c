import { randomUUID } from 'node:crypto';
import type { FieldError } from '@cds/contracts';

/** The Bundle types `POST /api/fhir` stores (docs/api.md "Records and quality measures"). */
export const STORED_BUNDLE_TYPES = ['batch', 'transaction', 'collection'] as const;
export type StoredBundleType = (typeof STORED_BUNDLE_TYPES)[number];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * FHIR R4's `id` characters. R4 caps an id at 64, but the official CMS test decks (exported from
 * MADiE) carry longer ones, and refusing an EHR's record over an id's length would lose it: up to 255.
 */
const FHIR_ID = /^[A-Za-z0-9.-]{1,255}$/;
const RESOURCE_TYPE = /^[A-Z][A-Za-z]{1,63}$/;
/** Entries in one Bundle: a patient's record fits many times over; a panel goes through $import. */
export const MAX_BUNDLE_ENTRIES = 5000;

/** One entry of the Bundle as it will be stored, or why it cannot be. */
export interface PlannedEntry {
  index: number;
  resource_type: string | null;
  id: string | null;
  resource: Json | null;
  /** Set when the entry itself (not its resource's content) is unusable: a 400 entry. */
  problem: string | null;
}

export interface BundlePlan {
  type: StoredBundleType;
  entries: PlannedEntry[];
}

/** A Bundle sent to be stored, its shape checked: its type and its entries, each not yet looked at. */
export interface BundleBody {
  type: StoredBundleType;
  entries: unknown[];
}

/** The Bundle's shape, before any resource is looked at: a wrong shape refuses the whole request. */
export function readBundle(body: unknown): BundleBody {
  const problems: FieldError[] = [];
  if (!isObject(body) || body.resourceType !== 'Bundle') problems.push({ field: 'resourceType', message: 'must be a FHIR Bundle' });
  else {
    if (!(STORED_BUNDLE_TYPES as readonly unknown[]).includes(body.type))
      problems.push({ field: 'type', message: `must be one of ${STORED_BUNDLE_TYPES.join(', ')}` });
    if (body.entry !== undefined && !Array.isArray(body.entry)) problems.push({ field: 'entry', message: 'must be a list' });
    else if (Array.isArray(body.entry) && body.entry.length > MAX_BUNDLE_ENTRIES)
      problems.push({ field: 'entry', message: `holds ${body.entry.length} entries; at most ${MAX_BUNDLE_ENTRIES} in one Bundle` });
  }
  if (problems.length) throw problems;
  const b = body as Json;
  return { type: b.type as StoredBundleType, entries: (b.entry as unknown[] | undefined) ?? [] };
}

/**
 * Each entry's resource type and id, as FHIR's batch rules say: PUT stores at the id its url names;
 * POST creates, keeping the resource's own id when it has one (as Bulk Data loaders send them) and
 * assigning one otherwise; a collection entry (no request) is stored at its own id. References to
 * an entry's `urn:uuid:` fullUrl are rewritten to the id it is stored at.
 */
export function planEntries(type: StoredBundleType, rawEntries: readonly unknown[]): BundlePlan {
  const entries: PlannedEntry[] = rawEntries.map((raw, index) => planOne(type, raw, index));
  const rewrites = new Map<string, string>();
  rawEntries.forEach((raw, i) => {
    const e = entries[i];
    const fullUrl = isObject(raw) ? raw.fullUrl : undefined;
    if (typeof fullUrl === 'string' && fullUrl.startsWith('urn:uuid:') && e.resource_type && e.id && !e.problem)
      rewrites.set(fullUrl, `${e.resource_type}/${e.id}`);
  });
  if (rewrites.size) for (const e of entries) if (e.resource && !e.problem) e.resource = rewriteReferences(e.resource, rewrites) as Json;
  return { type, entries };
}

function planOne(type: StoredBundleType, raw: unknown, index: number): PlannedEntry {
  const none = (problem: string): PlannedEntry => ({ index, resource_type: null, id: null, resource: null, problem });
  if (!isObject(raw)) return none('the entry is not an object');
  const resource = raw.resource;
  if (!isObject(resource) || typeof resource.resourceType !== 'string' || !RESOURCE_TYPE.test(resource.resourceType))
    return none('the entry has no resource with a resourceType');
  const resourceType = resource.resourceType;
  const request = raw.request;
  let id = typeof resource.id === 'string' ? resource.id : null;
  if (type !== 'collection' || request !== undefined) {
    const method = isObject(request) ? request.method : undefined;
    const url = isObject(request) && typeof request.url === 'string' ? request.url : '';
    if (method === 'PUT') {
      const m = /^([A-Za-z]+)\/([^/?#]+)$/.exec(url);
      if (!m || m[1] !== resourceType)
        return { ...none(`request.url must be ${resourceType}/<id> for a PUT`), resource_type: resourceType };
      if (id !== null && id !== m[2])
        return { ...none(`the resource's id ${id} differs from request.url's ${m[2]}`), resource_type: resourceType };
      id = m[2];
    } else if (method === 'POST') {
      if (url !== resourceType && url !== '')
        return { ...none(`request.url must be ${resourceType} for a POST`), resource_type: resourceType };
      id ??= randomUUID();
    } else if (type !== 'collection' || method !== undefined) {
      return {
        ...none(`request.method ${typeof method === 'string' ? method.slice(0, 10) : '(none)'} is not supported: use PUT or POST`),
        resource_type: resourceType,
      };
    }
  }
  if (id === null) return { ...none('the resource has no id'), resource_type: resourceType };
  if (!FHIR_ID.test(id)) return { ...none('the id must be 1 to 255 letters, digits, "-" or "."'), resource_type: resourceType };
  return { index, resource_type: resourceType, id, resource: id === resource.id ? resource : { ...resource, id }, problem: null };
}

function rewriteReferences(value: unknown, rewrites: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteReferences(v, rewrites));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === 'reference' && typeof v === 'string' && rewrites.has(v) ? rewrites.get(v) : rewriteReferences(v, rewrites);
  return out;
}

/** The patient a resource is about: the Patient itself, else its subject, patient or beneficiary reference. */
export function patientOf(resource: Json): string | null {
  if (resource.resourceType === 'Patient') return typeof resource.id === 'string' ? resource.id : null;
  for (const key of ['subject', 'patient', 'beneficiary']) {
    const ref = isObject(resource[key]) ? (resource[key] as Json).reference : undefined;
    const m = typeof ref === 'string' ? /(?:^|\/)Patient\/([A-Za-z0-9.-]{1,255})$/.exec(ref) : null;
    if (m) return m[1];
  }
  return null;
}
