import type { EngineParameter } from './types';

export interface ParameterIndex {
  readonly parameters: readonly EngineParameter[];
  readonly byId: ReadonlyMap<string, EngineParameter>;
  readonly byIdFolded: ReadonlyMap<string, EngineParameter[]>;
  readonly byName: ReadonlyMap<string, EngineParameter[]>;
  readonly byDisplayName: ReadonlyMap<string, EngineParameter[]>;
}

export interface ResolvedParameter {
  parameter: EngineParameter;
  matchedBy: 'id' | 'name' | 'display_name';
  /** More than one parameter fits at the level that matched; the first in list order is used. */
  ambiguous: boolean;
}

function fold(text: unknown): string {
  return typeof text === 'string' ? text.trim().toLowerCase() : '';
}

function push(map: Map<string, EngineParameter[]>, key: string, parameter: EngineParameter): void {
  if (key === '') return;
  const list = map.get(key);
  if (list) list.push(parameter);
  else map.set(key, [parameter]);
}

export function buildParameterIndex(parameters: readonly EngineParameter[]): ParameterIndex {
  const byId = new Map<string, EngineParameter>();
  const byIdFolded = new Map<string, EngineParameter[]>();
  const byName = new Map<string, EngineParameter[]>();
  const byDisplayName = new Map<string, EngineParameter[]>();
  for (const parameter of parameters) {
    if (!byId.has(parameter.id)) byId.set(parameter.id, parameter);
    push(byIdFolded, fold(parameter.id), parameter);
    push(byName, fold(parameter.name), parameter);
    push(byDisplayName, fold(parameter.display_name), parameter);
  }
  return { parameters, byId, byIdFolded, byName, byDisplayName };
}

export function isParameterIndex(value: readonly EngineParameter[] | ParameterIndex): value is ParameterIndex {
  return !Array.isArray(value);
}

export function toParameterIndex(value: readonly EngineParameter[] | ParameterIndex): ParameterIndex {
  return isParameterIndex(value) ? value : buildParameterIndex(value);
}

/** docs/product-spec.md section 5: by id, then by name ignoring case, then by display name ignoring case. */
export function resolveParameter(reference: unknown, index: ParameterIndex): ResolvedParameter | null {
  if (typeof reference !== 'string' || reference.trim() === '') return null;
  const exact = index.byId.get(reference);
  if (exact) return { parameter: exact, matchedBy: 'id', ambiguous: false };
  const key = fold(reference);
  const levels: [ResolvedParameter['matchedBy'], ReadonlyMap<string, EngineParameter[]>][] = [
    ['id', index.byIdFolded],
    ['name', index.byName],
    ['display_name', index.byDisplayName],
  ];
  for (const [matchedBy, map] of levels) {
    const found = map.get(key);
    if (found && found.length > 0) return { parameter: found[0], matchedBy, ambiguous: found.length > 1 };
  }
  return null;
}

export function displayNameOf(parameter: EngineParameter | null | undefined, fallback: string): string {
  if (!parameter) return fallback;
  return parameter.display_name || parameter.name || fallback;
}
