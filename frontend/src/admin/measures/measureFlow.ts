import type { MeasureDesignJson } from '@cds/contracts';
import type { FlowEdge } from '../rule-designer/flow';
import { before, unitOf, type DraftRule } from './measureDraft';

/** One condition of a population rule in words, with its cut-point's move when the draft changes it ("9 % → 8 %"). */
export interface FlowCondition {
  text: string;
  /** The words before the number, and the number with its unit as published and in the draft. */
  change?: { words: string; was: string; now: string };
}

export interface FlowRule {
  /** Where the rule is in the draft's rules (what a cut-point edit names). */
  index: number;
  name: string;
  conditions: FlowCondition[];
  /** How the draft treats the published rule. */
  status: 'published' | 'changed' | 'left-out' | 'new';
}

/** A population as one node of the flow: its rules, what it reads from the record and which value sets. */
export interface FlowPopulation {
  code: string;
  label: string;
  meaning: string;
  rules: FlowRule[];
  /** The record criteria its rules read, by display name with the unit ("Most recent HbA1c or GMI (lowest that day) (%)"). */
  reads: string[];
  /** The value sets those criteria match, by name. */
  valueSets: string[];
  /** Its rules with a cut-point a draft may change (conditions worded with a number). */
  cutPoints: number;
  /** The numerator's note: what a patient counted here means against the goal (the gap for an inverse measure). */
  note?: { text: string; gap: boolean };
  /** Whether the draft differs from the published version here. */
  changed: boolean;
}

export interface MeasureFlowModel {
  period: string;
  populations: FlowPopulation[];
  edges: FlowEdge[];
}

const withUnit = (value: unknown, unit: string) => `${String(value)}${unit ? ` ${unit}` : ''}`;

function conditionsOf(r: DraftRule): FlowCondition[] {
  return r.conditions.map((c, j) => {
    const was = r.worded[j];
    if (typeof was !== 'number' || c.value === was) return { text: r.texts[j] };
    const unit = unitOf(r.texts[j], was);
    const change = { words: before(r.texts[j], was), was: withUnit(was, unit), now: withUnit(c.value === '' ? '?' : c.value, unit) };
    return { text: `${change.words} ${change.was} → ${change.now}`, change };
  });
}

function statusOf(r: DraftRule, published: Set<string>, conditions: FlowCondition[]): FlowRule['status'] {
  if (!published.has(r.id)) return 'new';
  if (!r.included) return 'left-out';
  return conditions.some((c) => c.change) ? 'changed' : 'published';
}

/** How a patient moves from one population into the next, written on the edge into it. */
const INTO: Record<string, string> = {
  'denominator-exclusion': 'minus',
  numerator: 'of those left',
  'denominator-exception': 'if not in the numerator',
};

/**
 * Issue 21: the measure as a flow, the measurement period then each population in the order a measure is read, drawn
 * from the draft's rules (the published version when no draft is open) with what the draft changes marked.
 */
export function buildMeasureFlow(d: MeasureDesignJson, rules: DraftRule[]): MeasureFlowModel {
  const published = new Set(d.populations.flatMap((p) => p.rules.map((r) => r.id)));
  const criteria = new Map(d.criteria.map((c) => [c.id, c]));
  const populations = d.populations.map((p): FlowPopulation => {
    const own = rules.map((r, index) => ({ r, index })).filter(({ r }) => r.population === p.code);
    const flowRules = own.map(({ r, index }) => {
      const conditions = conditionsOf(r);
      return { index, name: r.name, conditions, status: statusOf(r, published, conditions) };
    });
    const read = [...new Set(own.flatMap(({ r }) => r.conditions.map((c) => c.parameter)))]
      .map((id) => criteria.get(id))
      .filter((c) => !!c);
    const gap = d.improvement_notation === 'decrease';
    const changed = flowRules.some((r) => r.status !== 'published');
    // The goal is worded from the published version: beside a draft that moves its cut-point, say whose goal it is.
    const goal = changed ? `the published version's goal: ${d.goal}` : d.goal;
    return {
      code: p.code,
      label: gap && p.code === 'numerator' ? 'Numerator: the gap' : p.label,
      meaning: p.rules.length || own.length ? p.meaning : 'The initial population: this measure adds no rule of its own here.',
      rules: flowRules,
      reads: read.map((c) => `${c.display_name}${c.unit ? ` (${c.unit})` : ''}`),
      valueSets: [...new Set(read.flatMap((c) => c.parts.flatMap((part) => part.value_sets.map((v) => v.title))))],
      cutPoints: own.filter(({ r }) => r.worded.some((w) => typeof w === 'number')).length,
      ...(p.code === 'numerator'
        ? {
            note: gap
              ? { text: `Inverse measure: a patient counted here is not at goal (${goal}). A lower score is better.`, gap }
              : { text: `A patient counted here meets the goal (${goal}). A higher score is better.`, gap },
          }
        : {}),
      changed,
    };
  });
  const ids = ['period', ...populations.map((p) => p.code)];
  const edges = ids.slice(1).map((id, i) => ({
    id: `e-${ids[i]}-${id}`,
    source: ids[i],
    target: id,
    ...(INTO[id] ? { label: INTO[id] } : {}),
  }));
  const { start, end } = d.measurement_period;
  return { period: `Measurement period ${start} to ${end}`, populations, edges };
}

/** Node widths in the measure flow (px): the period as the rule preview's start node, a population wide enough for its words. */
export const MEASURE_NODE_WIDTH = { period: 320, population: 560 };
const GAP = 48;

/** A population node's height before the browser measures it: a line per rule, condition and list, roughly. */
export function estimatedHeight(p: FlowPopulation): number {
  const lines = 2 + p.rules.reduce((n, r) => n + 1 + r.conditions.length, 0) + (p.reads.length ? 2 : 0) + (p.valueSets.length ? 2 : 0);
  return 32 + lines * 20 + (p.note ? 40 : 0) + (p.cutPoints ? 40 : 0);
}

/** The nodes one under another, centred, each `GAP` below the one before: the rule preview's column, with heights measured. */
export function stackColumn(items: { id: string; width: number; height: number }[]): { id: string; x: number; y: number }[] {
  let y = 0;
  return items.map((n) => {
    const at = { id: n.id, x: -n.width / 2, y };
    y += n.height + GAP;
    return at;
  });
}
