import { useState } from 'react';
import type { MeasureDesignJson, MeasureDraftRuleJson } from '@cds/contracts';

export interface DraftRule extends MeasureDraftRuleJson {
  id: string;
  included: boolean;
  texts: string[];
  /** The value each text was worded with (the published one): where a number field splits the words. */
  worded: unknown[];
  /** The published rule's name, which states those values ("Most recent HbA1c or GMI > 9 %"). */
  wordedName: string;
}

const publishedOf = (d: MeasureDesignJson): DraftRule[] =>
  d.populations.flatMap((p) =>
    p.rules.map((r) => ({
      id: r.id,
      name: r.name,
      population: p.code,
      included: true,
      texts: r.conditions.map((c) => c.text),
      worded: r.conditions.map((c) => c.value),
      wordedName: r.name,
      conditions: r.conditions.map((c) => ({ parameter: c.parameter_id, operator: c.operator, value: c.value })),
    })),
  );

/** The saved draft on the published rules' words: a published rule the draft leaves out is shown left out. */
function draftOf(d: MeasureDesignJson): DraftRule[] {
  const published = publishedOf(d);
  if (!d.draft) return published;
  const saved = new Map(d.draft.rules.map((r) => [r.id, r]));
  const same = (p: DraftRule, r: MeasureDraftRuleJson | undefined) => !!r && r.conditions.length === p.conditions.length;
  const kept = published.map((p) =>
    same(p, saved.get(p.id)) ? { ...p, name: saved.get(p.id)!.name, conditions: saved.get(p.id)!.conditions } : { ...p, included: false },
  );
  const extra = d.draft.rules
    .filter((r) => !published.some((p) => p.id === r.id && same(p, r)))
    .map((r, i) => ({
      ...r,
      id: r.id ?? `draft-${i + 1}`,
      included: true,
      texts: r.conditions.map((c) => `${c.parameter} ${c.operator} ${String(c.value)}`),
      worded: r.conditions.map((c) => c.value),
      wordedName: r.name,
    }));
  return [...kept, ...extra];
}

const token = (n: number) => new RegExp(`(^|[^\\d.])${String(n).replace('.', '\\.')}(?![\\d.])`);

/**
 * The rule's name with the cut-points it states moved with the conditions ("> 9 %" becomes "> 8 %"): the Panel's
 * evidence and a gap card's basis show it, and the server refuses a name that still states the old number.
 */
function nameFor(r: DraftRule, conditions: MeasureDraftRuleJson['conditions']): string {
  let name = r.wordedName;
  let moved = true;
  conditions.forEach((c, k) => {
    const was = r.worded[k];
    if (typeof was !== 'number' || was === c.value) return;
    if (typeof c.value === 'number' && token(was).test(name)) name = name.replace(token(was), `$1${c.value}`);
    else moved = false;
  });
  return moved ? name : r.name;
}

const payloadOf = (rules: DraftRule[]): MeasureDraftRuleJson[] =>
  rules.filter((r) => r.included).map(({ id, name, population, conditions }) => ({ id, name, population, conditions }));
/** Rules compared by content (the database keeps an object's keys in its own order). */
const sameRules = (a: MeasureDraftRuleJson[], b: MeasureDraftRuleJson[]) => {
  const key = (rs: MeasureDraftRuleJson[]) =>
    JSON.stringify(rs.map((r) => [r.id, r.name, r.population, r.conditions.map((c) => [c.parameter, c.operator, c.value])]));
  return key(a) === key(b);
};

/** A condition's words around its value ("Most recent HbA1c or GMI (lowest that day) >", "%"), for the value's own field. */
const around = (text: string, value: unknown): [string, string] => {
  const at = text.lastIndexOf(` ${String(value)}`);
  return at > 0 ? [text.slice(0, at), text.slice(at + String(value).length + 1).trim()] : [text, ''];
};
export const before = (text: string, value: unknown) => around(text, value)[0];
export const unitOf = (text: string, value: unknown) => around(text, value)[1];

/** The draft's key: a new saved draft or a publish starts the draft again from what is stored. */
const keyOf = (d: MeasureDesignJson) => (d.draft ? `${d.draft.version}-${d.draft.revision}` : `published-${d.published.version}`);

/** The measure's one draft as the page edits it: the form and the flow read and change this same state. */
export interface MeasureDraftState {
  rules: DraftRule[];
  /** Sets condition j of rule i to a cut-point, moving the number in the rule's name with it. */
  setCutPoint: (i: number, j: number, value: number | '') => void;
  setIncluded: (i: number, included: boolean) => void;
  /** The rules a save, an impact preview or a publish sends. */
  payload: MeasureDraftRuleJson[];
  /** The rules differ from the saved draft (or, with none, from the published version). */
  dirty: boolean;
}

export function useMeasureDraft(d: MeasureDesignJson): MeasureDraftState {
  const key = keyOf(d);
  const [state, setState] = useState(() => ({ key, rules: draftOf(d) }));
  let rules = state.rules;
  if (state.key !== key) {
    // Adjusted while rendering (React's pattern for state that follows a prop), so no frame shows the old draft.
    rules = draftOf(d);
    setState({ key, rules });
  }
  const update = (i: number, change: (r: DraftRule) => DraftRule) =>
    setState((s) => ({ ...s, rules: s.rules.map((r, k) => (k === i ? change(r) : r)) }));
  const payload = payloadOf(rules);
  return {
    rules,
    setCutPoint: (i, j, value) =>
      update(i, (x) => {
        const conditions = x.conditions.map((y, k) => (k === j ? { ...y, value } : y));
        return { ...x, name: nameFor(x, conditions), conditions };
      }),
    setIncluded: (i, included) => update(i, (x) => ({ ...x, included })),
    payload,
    dirty: !sameRules(payload, d.draft ? d.draft.rules : payloadOf(publishedOf(d))),
  };
}
