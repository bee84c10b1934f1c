import {
  buildParameterIndex,
  canonicalOperator,
  evaluateRule,
  normalizeCondition,
  questionFor,
  resolveParameter,
  typeClassOf,
  UNKNOWN_ANSWER,
  type Condition,
  type EngineParameter,
  type EngineRule,
} from '@cds/engine';
import type { Library, PlanDefinition, PlanDefinitionAction, PlanDefinitionActionCondition, RelatedArtifact } from '@medplum/fhirtypes';
import { toActions } from '../assessments/content';
import { clean, conditionText, libraryUrl, parameterCoding, planDefinitionUrl, type FhirContext, type VersionInfo } from './fhir-resources';
import { optionSystem } from './questionnaire-response';

/**
 * A published rule-set version as a PlanDefinition (one action per rule, its conditions as an
 * applicability condition, its actions nested) and a Library holding the conditions: FHIRPath
 * over the QuestionnaireResponse of the generated Questionnaire (linkId = parameter id), and the
 * rules' conditions as stored. FHIRPath's three-valued and/or matches the engine: a missing
 * answer leaves a condition empty (unknown), never false.
 */

const PRIORITY = { critical: 'stat', high: 'urgent' } as const;

const quoted = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function literal(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return `@${v}`;
  if (typeof v === 'string') return quoted(v);
  return null;
}

/** The answer's value of the type the parameter is typed in: other answers (codings) are left to the option table. */
function typedAnswer(p: EngineParameter): string {
  const item = `%resource.item.where(linkId=${quoted(p.id)}).answer.value`;
  switch (typeClassOf(p.data_type)) {
    case 'numeric':
      // A quantity counts only in the parameter's own unit; in another unit it is empty (unknown), never compared as is.
      return `${item}.ofType(Quantity)${p.units ? `.where(code = ${quoted(p.units)})` : ''}.value`;
    case 'boolean':
      return `${item}.ofType(boolean)`;
    case 'date':
      return `${item}.ofType(date)`;
    default:
      return `${item}.ofType(string)`;
  }
}

/** A typed answer compared with the threshold, or null when it cannot be written (an unknown operator, a band threshold). */
function typedPath(c: Condition, p: EngineParameter): string | null {
  const op = canonicalOperator(c.operator);
  if (!op) return null;
  const answer = typedAnswer(p);
  if (op === 'within_days') {
    // The engine's within_days is a distance either side of the reference day.
    const days = Number(c.value);
    return Number.isFinite(days) && days >= 0 ? `(${answer} >= today() - ${days} days and ${answer} <= today() + ${days} days)` : null;
  }
  const value = literal(c.value);
  if (value === null) return null;
  const infix = {
    equals: '=',
    not_equals: '!=',
    greater_than: '>',
    less_than: '<',
    greater_equal: '>=',
    less_equal: '<=',
    before: '<',
    after: '>',
  };
  if (op in infix) return `${answer} ${infix[op as keyof typeof infix]} ${value}`;
  // The engine's text search ignores case.
  const fn = ({ contains: 'contains', starts_with: 'startsWith', ends_with: 'endsWith' } as Record<string, string>)[op];
  return typeof c.value === 'string' ? `${answer}.lower().${fn}(${quoted(c.value.toLowerCase())})` : null;
}

/**
 * The question's answer options (codes "1", "2", ... of `system`) and what the engine decides for
 * each: true, false, or null (unknown: a band across the threshold, Not available).
 */
export interface CodedOptions {
  system: string;
  outcomes: readonly (boolean | null)[];
}

/**
 * One condition in FHIRPath over the QuestionnaireResponse: a typed answer is compared, a chosen
 * option is looked up in the engine's own verdict for it. Null when neither can be written.
 */
export function conditionPath(c: Condition, p: EngineParameter | null, coded?: CodedOptions): string | null {
  if (!p) return null;
  const typed = typedPath(c, p);
  const cases = (coded?.outcomes ?? []).flatMap((o, i) => (o === null ? [] : [[String(i + 1), String(o)] as const]));
  const lookup = cases.length
    ? `%resource.item.where(linkId=${quoted(p.id)}).answer.value.ofType(Coding).where(system = ${quoted(coded!.system)}).select(${cases.reduceRight(
        (rest, [code, v]) => `iif(code = '${code}', ${v}, ${rest})`,
        '{}',
      )})`
    : null;
  if (typed && lookup) return `((${typed}) | ${lookup})`;
  return typed ?? lookup;
}

/** What the engine decides for one condition and each option the question offers. */
function optionOutcomes(
  c: Condition,
  p: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
): (boolean | null)[] {
  const now = new Date();
  return questionFor(p, rules, parameters).options.map((o) => {
    if (o.value === UNKNOWN_ANSWER) return null;
    const rule: EngineRule = { id: 'condition', name: 'condition', priority: 0, conditions: [c], actions: [] };
    const result = evaluateRule(rule, { [p.id]: o.value }, parameters, { now }).result;
    return result === 'unknown' ? null : result;
  });
}

/** AND binds tighter than OR, as the engine reads `logic` (which links a condition to the next). */
function groups<T>(conditions: readonly Condition[], map: (c: Condition) => T): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  conditions.forEach((c, i) => {
    current.push(map(c));
    if (c.logic === 'OR' && i < conditions.length - 1) {
      out.push(current);
      current = [];
    }
  });
  if (current.length) out.push(current);
  return out;
}

function applicability(
  ctx: FhirContext,
  rule: EngineRule,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
): PlanDefinitionActionCondition | null {
  const index = buildParameterIndex(parameters);
  const conditions = (Array.isArray(rule.conditions) ? rule.conditions : []).map((c) => normalizeCondition(c));
  if (!conditions.length) return null;
  const resolved = (c: Condition) => resolveParameter(c.parameter, index)?.parameter ?? null;
  const text = groups(conditions, (c) => {
    const p = resolved(c);
    return conditionText(p?.display_name || p?.name || String(c.parameter), c.operator, c.value, p?.units);
  });
  const paths = groups(conditions, (c) => {
    const p = resolved(c);
    return p ? conditionPath(c, p, { system: optionSystem(ctx.base), outcomes: optionOutcomes(c, p, rules, parameters) }) : null;
  });
  const writable = paths.every((g) => g.every((x) => x !== null));
  const join = <T>(gs: T[][]) => gs.map((g) => (g.length > 1 && gs.length > 1 ? `(${g.join(' and ')})` : g.join(' and '))).join(' or ');
  return {
    kind: 'applicability',
    expression: clean({
      language: 'text/fhirpath' as const,
      description: join(text).replace(/ and /g, ' AND ').replace(/ or /g, ' OR '),
      expression: writable ? join(paths) : undefined,
    }),
  };
}

const citation = (source: string | null | undefined): RelatedArtifact[] =>
  source && source.trim() ? [{ type: 'citation', citation: source }] : [];

function ruleAction(
  ctx: FhirContext,
  rule: EngineRule,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
): PlanDefinitionAction {
  const actions = toActions(rule.actions);
  const severities = actions.map((a) => a.severity);
  const severity = severities.includes('critical') ? 'critical' : severities.includes('high') ? 'high' : null;
  const condition = applicability(ctx, rule, rules, parameters);
  return clean({
    id: rule.id,
    title: rule.name,
    description: rule.description ?? undefined,
    priority: severity ? PRIORITY[severity] : 'routine',
    documentation: citation(rule.source),
    condition: condition ? [condition] : [],
    action: actions.map((a) =>
      clean({ title: a.message, description: `${a.type} (${a.severity})`, priority: severityPriority(a.severity) }),
    ),
  }) as PlanDefinitionAction;
}

function severityPriority(severity: string): PlanDefinitionAction['priority'] {
  return (PRIORITY as Record<string, 'stat' | 'urgent'>)[severity] ?? 'routine';
}

const base64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

export function planDefinition(
  ctx: FhirContext,
  v: VersionInfo,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
): [PlanDefinition, Library] {
  const ordered = [...rules].sort((a, b) => (Number(b.priority) || 0) - (Number(a.priority) || 0));
  const plan = clean({
    resourceType: 'PlanDefinition',
    id: v.rule_set_id,
    url: planDefinitionUrl(ctx, v.rule_set_id),
    version: String(v.version),
    title: v.name,
    type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/plan-definition-type', code: 'eca-rule', display: 'ECA Rule' }] },
    status: 'active',
    date: v.published_at ?? undefined,
    relatedArtifact: citation(v.source),
    library: [`${libraryUrl(ctx, v.rule_set_id)}|${v.version}`],
    action: ordered.map((r) => ruleAction(ctx, r, rules, parameters)),
  }) as PlanDefinition;
  const conditions = ordered.map((r) => ({ rule_id: r.id, rule_name: r.name, conditions: r.conditions }));
  const library = clean({
    resourceType: 'Library',
    id: v.rule_set_id,
    url: libraryUrl(ctx, v.rule_set_id),
    version: String(v.version),
    title: `Conditions of ${v.name}`,
    status: 'active',
    type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/library-type', code: 'logic-library', display: 'Logic Library' }] },
    date: v.published_at ?? undefined,
    relatedArtifact: citation(v.source),
    dataRequirement: parameters.map((p) => ({ type: 'Observation', codeFilter: [{ path: 'code', code: [parameterCoding(ctx, p)] }] })),
    content: [
      { contentType: 'application/json', title: 'Rule conditions as published', data: base64(JSON.stringify(conditions)) },
      ...ordered.flatMap((r) => {
        const c = applicability(ctx, r, rules, parameters);
        return c?.expression?.expression ? [{ contentType: 'text/fhirpath', title: r.name, data: base64(c.expression.expression) }] : [];
      }),
    ],
  }) as Library;
  return [plan, library];
}
