import { unitDisplay, type ParameterJson } from '@cds/contracts';
import { operatorSymbol } from '../../components/format';
import { operatorLabel, typeClassOf, valueKind } from './conditionRules';
import type { RuleDraft } from './draft';
import { DESIGNER } from '../messages';

/** docs/product-spec.md section 9: action preview text is cut at 50 characters. */
export const ACTION_PREVIEW_MAX = 50;

export function cutText(text: string, max = ACTION_PREVIEW_MAX): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

export type FlowNodeKind = 'start' | 'condition' | 'decision' | 'action' | 'note';

export interface FlowNode {
  id: string;
  type: FlowNodeKind;
  position: { x: number; y: number };
  /** width: a start node wider than the preview's (a measure's measurement period with its dates). */
  data: { label: string; actionType?: string; severity?: string; width?: number };
}

export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  label?: string;
}

export type FlowModel = { empty: true; message: string } | { empty: false; nodes: FlowNode[]; edges: FlowEdge[] };

/** "HbA1c > 7 %", "Antibodies Is True", "Notes contains insulin". */
export function conditionLabel(c: { parameter: string; operator: string; value: string }, parameters: ParameterJson[]): string {
  const p = parameters.find((x) => x.id === c.parameter);
  const name = p?.display_name ?? (c.parameter || 'Choose a parameter');
  const boolean = typeClassOf(p?.data_type) === 'boolean';
  const op = boolean ? operatorLabel(c.operator, p?.data_type) : operatorSymbol(c.operator);
  let value = c.value.trim() === '' ? '?' : c.value.trim();
  if (boolean && (value === 'true' || value === 'false')) value = value === 'true' ? 'True' : 'False';
  const kind = valueKind(p, c.operator);
  const units =
    kind === 'number' && p?.units && value !== '?' ? ` ${unitDisplay(p.units)}` : kind === 'days' && value !== '?' ? ' days' : '';
  return `${name} ${op} ${value}${units}`;
}

const STEP = 90;
const ACTION_GAP = 250;
/** Node widths in the preview (px); positions are their top-left corners, so centres line up. */
export const NODE_WIDTH: Record<FlowNodeKind, number> = { start: 200, condition: 200, decision: 160, action: 220, note: 200 };
const left = (kind: FlowNodeKind, centre = 0) => centre - NODE_WIDTH[kind] / 2;

/**
 * docs/product-spec.md section 2: a start node with the rule name, one node per condition joined by its logic
 * (AND by default), the 'Conditions Met?' decision, then one node per action, the first branch
 * labelled 'Yes'; 'No actions defined' with conditions but no actions; 'No rule data to preview'
 * with neither.
 */
export function buildFlow(draft: Pick<RuleDraft, 'name' | 'conditions' | 'actions'>, parameters: ParameterJson[]): FlowModel {
  if (!draft.conditions.length && !draft.actions.length) return { empty: true, message: DESIGNER.noData };
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  let y = 0;
  nodes.push({ id: 'start', type: 'start', position: { x: left('start'), y }, data: { label: draft.name.trim() || 'New rule' } });
  let previous = 'start';
  draft.conditions.forEach((c, i) => {
    y += STEP;
    const id = `condition-${i}`;
    nodes.push({ id, type: 'condition', position: { x: left('condition'), y }, data: { label: conditionLabel(c, parameters) } });
    // The edge into condition i carries the logic written on condition i-1 (spec: default AND).
    const label = i === 0 ? undefined : (draft.conditions[i - 1].logic ?? 'AND');
    edges.push({ id: `e-${previous}-${id}`, source: previous, target: id, ...(label ? { label } : {}) });
    previous = id;
  });
  y += STEP;
  nodes.push({ id: 'decision', type: 'decision', position: { x: left('decision'), y }, data: { label: DESIGNER.conditionsMet } });
  edges.push({ id: `e-${previous}-decision`, source: previous, target: 'decision' });
  y += STEP + 20;
  if (!draft.actions.length) {
    nodes.push({ id: 'no-actions', type: 'note', position: { x: left('note'), y }, data: { label: DESIGNER.noActions } });
    edges.push({ id: 'e-decision-no-actions', source: 'decision', target: 'no-actions', label: DESIGNER.yes });
  } else {
    const n = draft.actions.length;
    draft.actions.forEach((a, i) => {
      const id = `action-${i}`;
      const text = (a.value?.trim() || a.message).trim();
      nodes.push({
        id,
        type: 'action',
        position: { x: left('action', (i - (n - 1) / 2) * ACTION_GAP), y },
        data: { label: cutText(text || '(no message yet)'), actionType: a.type, severity: a.severity },
      });
      edges.push({ id: `e-decision-${id}`, source: 'decision', target: id, ...(i === 0 ? { label: DESIGNER.yes } : {}) });
    });
  }
  return { empty: false, nodes, edges };
}
