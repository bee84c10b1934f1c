import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { likePattern, type ListQuery } from '../../common/pagination';
import { RuleSet } from './rule-set.entity';
import { RuleTestCase } from './rule-test-case.entity';
import { Rule } from './rule.entity';

/** The list's filters, already checked by the service. */
export interface RuleListFilter {
  ids?: string[];
  ruleSetId?: string;
  isActive?: boolean;
  text?: string;
}

const SORT: Record<string, string> = {
  priority: 'r.priority',
  name: 'lower(r.name)',
  created_at: 'r.created_at',
  updated_at: 'r.updated_at',
};
export const RULE_SORTABLE = Object.keys(SORT);

type Lock = 'pessimistic_write' | 'pessimistic_read';
const lockIf = (lock: Lock | false) => (lock ? { lock: { mode: lock } } : {});

/** Rules and their saved test cases: every query on them. The entities are the rows. */
@Injectable()
export class RulesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Rules of rule sets that were not deleted. */
  private live(m: EntityManager = this.db.manager) {
    return m.createQueryBuilder(Rule, 'r').innerJoin(RuleSet, 'rs', 'rs.id = r.rule_set_id AND rs.deleted_at IS NULL');
  }

  async list(q: ListQuery, f: RuleListFilter): Promise<{ rows: Rule[]; total: number }> {
    const qb = this.live();
    if (f.ids) qb.andWhere('r.id IN (:...ids)', { ids: f.ids });
    if (f.ruleSetId) qb.andWhere('r.rule_set_id = :setId', { setId: f.ruleSetId });
    if (f.isActive !== undefined) qb.andWhere('r.is_active = :active', { active: f.isActive });
    if (f.text) qb.andWhere('(r.name ILIKE :q OR r.description ILIKE :q)', { q: likePattern(f.text) });
    const total = await qb.clone().getCount();
    const rows = await qb
      .orderBy(SORT[q.sort.field], q.sort.order)
      .addOrderBy('r.created_at', 'ASC')
      .addOrderBy('r.id', 'ASC')
      .offset(q.offset)
      .limit(q.limit)
      .getMany();
    return { rows, total };
  }

  /** A rule of a rule set that was not deleted; `lock` locks the rule row until the transaction ends. */
  find(m: EntityManager, id: string, lock = false): Promise<Rule | null> {
    const qb = this.live(m).where('r.id = :id', { id });
    if (lock) qb.setLock('pessimistic_write', undefined, ['r']);
    return qb.getOne();
  }

  async insert(m: EntityManager, row: Partial<Rule>): Promise<string> {
    return (await m.save(Rule, m.create(Rule, row))).id;
  }

  async update(m: EntityManager, id: string, next: Partial<Rule>): Promise<void> {
    await m.save(Rule, { id, ...next });
  }

  async deactivate(m: EntityManager, id: string): Promise<void> {
    await m.update(Rule, { id }, { is_active: false });
  }

  testCases(ruleId: string): Promise<RuleTestCase[]> {
    return this.db.manager.find(RuleTestCase, { where: { rule_id: ruleId }, order: { created_at: 'ASC', id: 'ASC' } });
  }

  findTestCase(m: EntityManager, ruleId: string, caseId: string, lock = false): Promise<RuleTestCase | null> {
    return m.findOne(RuleTestCase, { where: { id: caseId, rule_id: ruleId }, ...lockIf(lock && 'pessimistic_write') });
  }

  async insertTestCase(row: Partial<RuleTestCase>): Promise<string> {
    return (await this.db.manager.save(RuleTestCase, this.db.manager.create(RuleTestCase, row))).id;
  }

  async updateTestCase(m: EntityManager, id: string, next: Partial<RuleTestCase>): Promise<void> {
    await m.save(RuleTestCase, { id, ...next });
  }

  async deleteTestCase(ruleId: string, caseId: string): Promise<void> {
    await this.db.manager.delete(RuleTestCase, { id: caseId, rule_id: ruleId });
  }
}

// Shared by the rules module's services and the publishing gate, inside their transactions.

/** The rules of a set that count (is_active), in the spec's order: priority ascending. */
export function activeRules(m: EntityManager, ruleSetId: string): Promise<Rule[]> {
  return m.find(Rule, { where: { rule_set_id: ruleSetId, is_active: true }, order: { priority: 'ASC', created_at: 'ASC', id: 'ASC' } });
}

export async function insertRules(m: EntityManager, rows: Partial<Rule>[]): Promise<void> {
  if (rows.length)
    await m.save(
      Rule,
      rows.map((r) => m.create(Rule, r)),
    );
}

/** Inserts the rules and returns them saved (ids included), in the order given. */
export function insertRulesReturning(m: EntityManager, rows: Partial<Rule>[]): Promise<Rule[]> {
  return m.save(
    Rule,
    rows.map((r) => m.create(Rule, r)),
  );
}

/** The saved test cases of the given rules, oldest first. */
export function testCasesOfRules(m: EntityManager, ruleIds: string[]): Promise<RuleTestCase[]> {
  return m.find(RuleTestCase, { where: { rule_id: In(ruleIds) }, order: { created_at: 'ASC', id: 'ASC' } });
}
