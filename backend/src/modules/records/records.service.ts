import { Injectable } from '@nestjs/common';
import type { FhirBundleResponseJson, FhirResourceJson, ValueSetSummaryJson } from '@cds/contracts';
import { DomainError, type FieldError } from '../../common/errors';
import { fhirProblems } from './fhir-validation';
import { patientOf, planEntries, type BundleBody, type PlannedEntry } from './bundle-entries';
import { RecordsRepository, type RecordRow, type StoredRecord } from './records.repository';
import { shippedValueSets } from './shipped-value-sets';
import { valueSetSummaries } from './value-set-summaries';

type Json = Record<string, unknown>;

const outcome = (diagnostics: string): FhirResourceJson => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'invalid', diagnostics }],
});

/**
 * Records in (issue 21): a FHIR Bundle's resources stored by resourceType/id. A batch or collection
 * stores what is valid and answers each entry; a transaction stores everything or nothing.
 */
@Injectable()
export class RecordsService {
  /** The shipped value sets, read once: they change only with a release. */
  private shipped: Record<string, unknown>[] | null = null;

  constructor(private readonly repo: RecordsRepository) {}

  /** The value sets a criterion may name: stored ones, then shipped ones not stored (the criterion editor's list). */
  async valueSets(): Promise<ValueSetSummaryJson[]> {
    this.shipped ??= shippedValueSets();
    return valueSetSummaries(await this.repo.valueSets(), this.shipped);
  }

  async storeBundle(shape: BundleBody): Promise<FhirBundleResponseJson> {
    const plan = planEntries(shape.type, shape.entries);
    const failures = new Map<number, FhirResourceJson>();
    for (const e of plan.entries) {
      if (e.problem) failures.set(e.index, outcome(e.problem));
      else {
        const problems = fhirProblems(e.resource);
        if (problems) failures.set(e.index, problems as unknown as FhirResourceJson);
      }
    }
    const keyOf = (e: PlannedEntry) => `${e.resource_type}/${e.id}`;
    if (plan.type === 'transaction') {
      const seen = new Set<string>();
      for (const e of plan.entries)
        if (!e.problem && seen.has(keyOf(e))) failures.set(e.index, outcome(`${keyOf(e)} appears twice in the transaction`));
        else seen.add(keyOf(e));
      if (failures.size) throw transactionRefused(failures);
    }

    // In a batch or collection the last entry for one resourceType/id is the one that stays.
    const last = new Map<string, PlannedEntry>();
    for (const e of plan.entries) if (!failures.has(e.index)) last.set(keyOf(e), e);
    const rows: RecordRow[] = [...last.values()].map((e) => ({
      resource_type: e.resource_type!,
      id: e.id!,
      patient_id: patientOf(e.resource as Json),
      resource: e.resource as Json,
    }));
    const stored = new Map<string, StoredRecord>((await this.repo.upsert(rows)).map((s) => [`${s.resource_type}/${s.id}`, s]));

    return {
      resourceType: 'Bundle',
      type: plan.type === 'transaction' ? 'transaction-response' : 'batch-response',
      entry: plan.entries.map((e) => {
        const failure = failures.get(e.index);
        if (failure) return { response: { status: '400 Bad Request', outcome: failure } };
        const s = stored.get(keyOf(e))!;
        return {
          response: {
            status: s.created ? '201 Created' : '200 OK',
            location: `${s.resource_type}/${s.id}/_history/${s.version_id}`,
            etag: `W/"${s.version_id}"`,
            lastModified: new Date(s.last_updated).toISOString(),
          },
        };
      }),
    };
  }
}

/** A transaction with any unusable entry stores nothing; every problem is named by its entry. */
function transactionRefused(failures: ReadonlyMap<number, FhirResourceJson>): DomainError {
  const details: FieldError[] = [];
  for (const [index, o] of [...failures].sort((a, b) => a[0] - b[0])) {
    for (const issue of (o.issue as { diagnostics?: string; expression?: string[] }[]) ?? []) {
      const where = issue.expression?.[0];
      details.push({ field: `entry[${index}].resource${where ? ` (${where})` : ''}`, message: issue.diagnostics ?? 'invalid' });
    }
  }
  return new DomainError(
    'invalid_fhir_resource',
    `The transaction was not stored: ${failures.size} entr${failures.size === 1 ? 'y is' : 'ies are'} not valid FHIR R4`,
    details.slice(0, 50),
  );
}
