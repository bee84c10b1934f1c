import { EntityManager, In, IsNull } from 'typeorm';
import { notFound } from '../../common/errors';
import { UUID } from '../../common/pagination';
import type { EngineParameter } from '../../engine';
import { Parameter } from '../parameters/parameter.entity';
import { toEngineParameter } from '../parameters/parameters.service';
import { catalogue, type ParameterCatalogue } from './rule-content';
import { RuleSet } from './rule-set.entity';
import { Rule } from './rule.entity';
import { referencedParameterIds, ruleSnapshot, type Content } from './snapshot';

/** Loading helpers shared by the rules services; each takes the transaction's manager. */

export async function findRuleSet(m: EntityManager, id: string, lock?: 'pessimistic_write' | 'pessimistic_read'): Promise<RuleSet> {
  const set = await m.findOne(RuleSet, { where: { id, deleted_at: IsNull() }, ...(lock ? { lock: { mode: lock } } : {}) });
  if (!set) throw notFound('Rule set');
  return set;
}

/** The rules of a set that count (is_active), in the spec's order: priority ascending. */
export function activeRules(m: EntityManager, ruleSetId: string): Promise<Rule[]> {
  return m.find(Rule, { where: { rule_set_id: ruleSetId, is_active: true }, order: { priority: 'ASC', created_at: 'ASC', id: 'ASC' } });
}

/** Every parameter, inactive ones and templates included, so a reference can be explained. */
export async function loadCatalogue(m: EntityManager): Promise<ParameterCatalogue> {
  const rows = await m.find(Parameter, { order: { created_at: 'ASC', id: 'ASC' } });
  return catalogue(rows.map((p) => ({ ...toEngineParameter(p), is_template: p.is_template })));
}

/** Non-template parameters (active first): what analysis resolves references against. */
export async function analysisParameters(m: EntityManager): Promise<EngineParameter[]> {
  const rows = await m.find(Parameter, { where: { is_template: false }, order: { is_active: 'DESC', created_at: 'ASC', id: 'ASC' } });
  return rows.map(toEngineParameter);
}

/**
 * Parameters by id. With `share`, the rows are locked until the transaction ends, so a
 * parameter cannot be deleted between a rule's check and its save.
 */
export async function parametersById(m: EntityManager, ids: readonly string[], share = false): Promise<EngineParameter[]> {
  const valid = ids.filter((id) => UUID.test(id));
  if (!valid.length) return [];
  const rows = await m.find(Parameter, { where: { id: In(valid) }, order: { id: 'ASC' }, ...(share ? { lock: { mode: 'pessimistic_read' as const } } : {}) });
  return rows.map(toEngineParameter);
}

/** The current draft: active rules and the parameters they name, as a version would hold them. */
export async function draftContent(m: EntityManager, ruleSetId: string): Promise<Content> {
  const rules = (await activeRules(m, ruleSetId)).map(ruleSnapshot);
  return { rules, parameters: await parametersById(m, referencedParameterIds(rules)) };
}
