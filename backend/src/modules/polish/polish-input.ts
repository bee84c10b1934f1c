import { createHash } from 'node:crypto';

/** Everything a provider may see: the parameter's description, never a patient's data. */
export interface PolishInput {
  displayName: string;
  name: string;
  category?: string | null;
  dataType?: string | null;
  units?: string | null;
}

/** The parameter columns the polished wording depends on. */
export interface PolishSource {
  name: string;
  display_name: string;
  category?: string | null;
  data_type?: string | null;
  units?: string | null;
}

export function polishInputOf(p: PolishSource): PolishInput {
  return { displayName: p.display_name, name: p.name, category: p.category ?? null, dataType: p.data_type ?? null, units: p.units ?? null };
}

// Bump the version when the wording rules change, so every stored question is redone.
const HASH_VERSION = 'polish-v1';

/** sha256 (hex, 64 chars) of the input: the job id's suffix and the staleness check. */
export function polishInputHash(p: PolishSource): string {
  const i = polishInputOf(p);
  return createHash('sha256')
    .update(JSON.stringify([HASH_VERSION, i.name, i.displayName, i.category, i.dataType, i.units]))
    .digest('hex');
}

/** One job per parameter and input: the same input can never be queued twice at once. */
export function polishJobId(parameterId: string, inputHash: string): string {
  return `polish-${parameterId}-${inputHash}`;
}
