import type { EntityManager } from 'typeorm';
import { notFound } from '../../common/errors';
import type { EngineParameter } from '@cds/engine';
import { allParameters, parametersByIds, realParameters, toEngineParameter } from '../parameters';
import { catalogue, type ParameterCatalogue } from './rule-content';
import type { RuleSet } from './rule-set.entity';
import { anyRuleSet, liveRuleSet } from './rule-sets.repository';
import { activeRules } from './rules.repository';
import { referencedParameterIds, ruleSnapshot, type Content } from './snapshot';

/** Loading steps shared by the rules services (no SQL: that is in the repositories); each takes the transaction's manager. */

export async function findRuleSet(m: EntityManager, id: string, lock?: 'pessimistic_write' | 'pessimistic_read'): Promise<RuleSet> {
  const set = await liveRuleSet(m, id, lock);
  if (!set) throw notFound('Rule set');
  return set;
}

/** Every parameter, inactive ones and templates included, so a reference can be explained. */
export async function loadCatalogue(m: EntityManager): Promise<ParameterCatalogue> {
  const rows = await allParameters(m);
  return catalogue(rows.map((p) => ({ ...toEngineParameter(p), is_template: p.is_template })));
}

/** Non-template parameters (active first): what analysis resolves references against. */
export async function analysisParameters(m: EntityManager): Promise<EngineParameter[]> {
  return (await realParameters(m)).map(toEngineParameter);
}

/**
 * Parameters by id. With `share`, the rows are locked until the transaction ends, so a
 * parameter cannot be deleted between a rule's check and its save.
 */
export async function parametersById(m: EntityManager, ids: readonly string[], share = false): Promise<EngineParameter[]> {
  return (await parametersByIds(m, ids, share)).map(toEngineParameter);
}

/** The current draft: active rules and the parameters they name, as a version would hold them. */
export async function draftContent(m: EntityManager, ruleSetId: string): Promise<Content> {
  const set = await anyRuleSet(m, ruleSetId);
  const rules = (await activeRules(m, ruleSetId)).map((r) => ruleSnapshot(r, set?.source));
  return { rules, parameters: await parametersById(m, referencedParameterIds(rules)) };
}
