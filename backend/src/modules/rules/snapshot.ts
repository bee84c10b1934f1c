import type { Changed, ContentDiff } from '@cds/contracts';
import type { EngineParameter, EngineRule } from '@cds/engine';
import { canonicalJson, sha256, sameJson } from '../../common/api-helpers';
import type { Rule } from './rule.entity';

/** The content of a rule set that assessments use: its active rules and the parameters they name. */
export interface Content {
  rules: EngineRule[];
  parameters: EngineParameter[];
}

/**
 * A rule as published: what decides an outcome and the guideline it cites (its own source, else
 * its rule set's), and nothing about who or when. `source` is left out when there is none, so
 * content published before sources existed hashes as it did.
 */
export function ruleSnapshot(r: Rule, ruleSetSource?: string | null): EngineRule {
  const source = r.source || ruleSetSource || null;
  return {
    id: r.id,
    rule_set_id: r.rule_set_id,
    name: r.name,
    description: r.description,
    priority: r.priority,
    conditions: r.conditions,
    actions: r.actions,
    ...(source ? { source } : {}),
  };
}

/** Stored conditions are normalised: `parameter` is the parameter id. */
export function referencedParameterIds(rules: readonly EngineRule[]): string[] {
  const ids = new Set<string>();
  for (const rule of rules) for (const c of rule.conditions ?? []) if (typeof c.parameter === 'string') ids.add(c.parameter);
  ids.delete('');
  return [...ids].sort();
}

/** Rules in list order (priority, then id) and parameters by id, so equal content hashes equally. */
export function canonicalContent(content: Content): Content {
  return {
    rules: [...content.rules].sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    parameters: [...content.parameters].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
}

export function contentHash(content: Content): string {
  const c = canonicalContent(content);
  return sha256(canonicalJson({ rules: c.rules, parameters: c.parameters }));
}

const RULE_FIELDS = ['name', 'description', 'priority', 'conditions', 'actions', 'source'] as const;
const PARAMETER_FIELDS = ['name', 'display_name', 'data_type', 'units', 'validation_rules', 'is_active'] as const;

function diffLists<T extends { id: string; name: string }>(from: readonly T[], to: readonly T[], fields: readonly (keyof T & string)[]) {
  const before = new Map(from.map((x) => [x.id, x]));
  const after = new Map(to.map((x) => [x.id, x]));
  const changed: Changed<T>[] = [];
  let unchanged = 0;
  for (const [id, b] of before) {
    const a = after.get(id);
    if (!a) continue;
    const differing = fields.filter((f) => !sameJson(b[f], a[f]));
    if (differing.length) changed.push({ id, name: a.name, fields: differing, before: b, after: a });
    else unchanged += 1;
  }
  return {
    added: to.filter((x) => !before.has(x.id)),
    removed: from.filter((x) => !after.has(x.id)),
    changed,
    unchanged,
  };
}

/** Rules matched by id: added, removed, changed (with the fields that differ); likewise parameters. */
export function diffContent(from: Content | null, to: Content): ContentDiff {
  const a = canonicalContent(from ?? { rules: [], parameters: [] });
  const b = canonicalContent(to);
  const rules = diffLists(a.rules, b.rules, RULE_FIELDS);
  const { unchanged: _, ...parameters } = diffLists(a.parameters, b.parameters, PARAMETER_FIELDS);
  return { ...rules, parameters };
}
