import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { notFound, validationFailed, type FieldError } from '../../common/errors';
import { idFilter, likePattern, ListQuery, Page, UUID } from '../../common/pagination';
import { evaluateRule, type Action, type Answers, type Condition, type ConditionTrace, type EngineParameter, type EngineRule } from '../../engine';
import type { AuthUser } from '../auth/auth-user';
import { assertFilterKeys, boolFilter, iso, textFilter } from '../parameters/api-helpers';
import { answerErrors, fromStoredOutcome, readActions, readConditions, toStoredOutcome, type Outcome } from './rule-content';
import { loadCatalogue, parametersById } from './rule-store';
import type { CreateRuleDto, CreateTestCaseDto, TestRuleDto, UpdateRuleDto, UpdateTestCaseDto } from './rules.dto';
import { RuleSet } from './rule-set.entity';
import { RuleTestCase } from './rule-test-case.entity';
import { Rule } from './rule.entity';
import { referencedParameterIds, ruleSnapshot } from './snapshot';

export interface RuleJson {
  id: string;
  rule_set_id: string;
  name: string;
  description: string;
  priority: number;
  conditions: Condition[];
  actions: Action[];
  is_active: boolean;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface RuleTestResult {
  rule_id: string;
  outcome: Outcome;
  matched: boolean;
  trace: ConditionTrace[];
  /** The rule's actions when it matches; empty otherwise. */
  actions: Action[];
}

export interface TestCaseJson {
  id: string;
  rule_id: string;
  name: string;
  answers: Answers;
  expected_outcome: Outcome;
  reference_date: string | null;
  /** Run against the rule as it is now. */
  actual_outcome: Outcome;
  passed: boolean;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

const SORT: Record<string, string> = { priority: 'r.priority', name: 'lower(r.name)', created_at: 'r.created_at', updated_at: 'r.updated_at' };
export const RULE_SORTABLE = Object.keys(SORT);
const FILTERS = ['rule_set_id', 'is_active', 'q', 'id'];
const COPY = ' (copy)';

export function toRuleJson(r: Rule): RuleJson {
  return {
    id: r.id, rule_set_id: r.rule_set_id, name: r.name, description: r.description, priority: r.priority,
    conditions: r.conditions, actions: r.actions, is_active: r.is_active, created_by: r.created_by,
    created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)!,
  };
}

/** One rule against one set of answers, through the engine; `now` anchors "within days". */
export function runRule(rule: EngineRule, answers: Answers, parameters: readonly EngineParameter[], now: Date): RuleTestResult {
  const { result, trace } = evaluateRule(rule, answers, parameters, { now });
  return { rule_id: rule.id, outcome: result, matched: result === true, trace, actions: result === true ? rule.actions : [] };
}

@Injectable()
export class RulesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Rules of rule sets that were not deleted. */
  private live(m: EntityManager = this.db.manager) {
    return m.createQueryBuilder(Rule, 'r').innerJoin(RuleSet, 'rs', 'rs.id = r.rule_set_id AND rs.deleted_at IS NULL');
  }

  async list(q: ListQuery): Promise<Page<RuleJson>> {
    const f = q.filter;
    assertFilterKeys(f, FILTERS);
    const qb = this.live();
    const ids = idFilter(f);
    if (ids) qb.andWhere('r.id IN (:...ids)', { ids });
    if (f.rule_set_id !== undefined) {
      if (typeof f.rule_set_id !== 'string' || !UUID.test(f.rule_set_id)) {
        throw validationFailed([{ field: 'filter.rule_set_id', message: 'filter.rule_set_id must be a rule set id' }]);
      }
      qb.andWhere('r.rule_set_id = :setId', { setId: f.rule_set_id });
    }
    // Deleting a rule is a soft delete: deleted rules are left out unless asked for.
    if (f.is_active !== 'all') {
      const active = boolFilter(f, 'is_active') ?? (ids ? undefined : true);
      if (active !== undefined) qb.andWhere('r.is_active = :active', { active });
    }
    const text = textFilter(f, 'q');
    if (text) qb.andWhere('(r.name ILIKE :q OR r.description ILIKE :q)', { q: likePattern(text) });
    const total = await qb.clone().getCount();
    const rows = await qb.orderBy(SORT[q.sort.field], q.sort.order).addOrderBy('r.created_at', 'ASC').addOrderBy('r.id', 'ASC')
      .offset(q.offset).limit(q.limit).getMany();
    return new Page('rules', rows.map(toRuleJson), total, q.offset);
  }

  async get(id: string): Promise<RuleJson> {
    return toRuleJson(await this.find(this.db.manager, id));
  }

  async create(actor: AuthUser, dto: CreateRuleDto): Promise<RuleJson> {
    const id = await this.db.transaction(async (m) => {
      await this.ruleSetFor(m, dto.rule_set_id);
      const content = await this.content(m, dto.conditions ?? [], dto.actions ?? []);
      const saved = await m.save(Rule, m.create(Rule, {
        rule_set_id: dto.rule_set_id, name: dto.name, description: dto.description ?? '', priority: dto.priority ?? 0,
        conditions: content.conditions, actions: content.actions, is_active: dto.is_active ?? true, created_by: actor.id,
      }));
      return saved.id;
    });
    return this.get(id);
  }

  /** Updates the supplied fields; conditions and actions are checked again only when supplied. */
  async update(id: string, dto: UpdateRuleDto): Promise<RuleJson> {
    await this.db.transaction(async (m) => {
      await this.find(m, id, true);
      const next: Partial<Rule> = {};
      if (dto.rule_set_id !== undefined) {
        await this.ruleSetFor(m, dto.rule_set_id);
        next.rule_set_id = dto.rule_set_id;
      }
      if (dto.name !== undefined) next.name = dto.name;
      if (dto.description !== undefined) next.description = dto.description ?? '';
      if (dto.priority !== undefined) next.priority = dto.priority;
      if (dto.is_active !== undefined) next.is_active = dto.is_active;
      if (dto.conditions !== undefined || dto.actions !== undefined) {
        const content = await this.content(m, dto.conditions ?? [], dto.actions ?? []);
        if (dto.conditions !== undefined) next.conditions = content.conditions;
        if (dto.actions !== undefined) next.actions = content.actions;
      }
      if (Object.keys(next).length) await m.save(Rule, { id, ...next });
    });
    return this.get(id);
  }

  /** Product spec section 4: deleting a rule sets is_active to false; it stays for the record. */
  async remove(id: string): Promise<RuleJson> {
    await this.db.transaction(async (m) => {
      const rule = await this.find(m, id, true);
      if (rule.is_active) await m.update(Rule, { id }, { is_active: false });
    });
    return this.get(id);
  }

  /** A real copy in the same rule set, named "{name} (copy)", with its own condition and action ids. */
  async clone(actor: AuthUser, id: string): Promise<RuleJson> {
    const newId = await this.db.transaction(async (m) => {
      const r = await this.find(m, id);
      await this.ruleSetFor(m, r.rule_set_id);
      const saved = await m.save(Rule, m.create(Rule, {
        rule_set_id: r.rule_set_id, name: `${r.name.slice(0, 200 - COPY.length)}${COPY}`, description: r.description,
        priority: r.priority, is_active: true, created_by: actor.id,
        conditions: r.conditions.map((c) => ({ ...c, id: randomUUID() })),
        actions: r.actions.map((a) => ({ ...a, id: randomUUID() })),
      }));
      return saved.id;
    });
    return this.get(newId);
  }

  /** Runs the rule as it is now (saved, not published) against the given answers. */
  async test(id: string, dto: TestRuleDto): Promise<RuleTestResult> {
    const { rule, parameters } = await this.forEvaluation(id, dto.answers);
    return runRule(rule, dto.answers as Answers, parameters, referenceTime(dto.reference_date));
  }

  async listTestCases(ruleId: string): Promise<TestCaseJson[]> {
    const { rule, parameters } = await this.forEvaluation(ruleId);
    const cases = await this.db.manager.find(RuleTestCase, { where: { rule_id: ruleId }, order: { created_at: 'ASC', id: 'ASC' } });
    return cases.map((c) => toCaseJson(c, rule, parameters));
  }

  async createTestCase(actor: AuthUser, ruleId: string, dto: CreateTestCaseDto): Promise<TestCaseJson> {
    await this.forEvaluation(ruleId, dto.answers);
    const saved = await this.db.manager.save(RuleTestCase, this.db.manager.create(RuleTestCase, {
      rule_id: ruleId, name: dto.name, answers: dto.answers as Answers, expected_outcome: toStoredOutcome(dto.expected_outcome),
      reference_date: dto.reference_date ? new Date(dto.reference_date) : null, created_by: actor.id,
    }));
    return this.testCase(ruleId, saved.id);
  }

  async updateTestCase(ruleId: string, caseId: string, dto: UpdateTestCaseDto): Promise<TestCaseJson> {
    await this.db.transaction(async (m) => {
      await this.findCase(m, ruleId, caseId, true);
      if (dto.answers !== undefined) await this.forEvaluation(ruleId, dto.answers, m);
      const next: Partial<RuleTestCase> = {};
      if (dto.name !== undefined) next.name = dto.name;
      if (dto.answers !== undefined) next.answers = dto.answers as Answers;
      if (dto.expected_outcome !== undefined) next.expected_outcome = toStoredOutcome(dto.expected_outcome);
      if (dto.reference_date !== undefined) next.reference_date = dto.reference_date ? new Date(dto.reference_date) : null;
      if (Object.keys(next).length) await m.save(RuleTestCase, { id: caseId, ...next });
    });
    return this.testCase(ruleId, caseId);
  }

  async removeTestCase(ruleId: string, caseId: string): Promise<TestCaseJson> {
    const json = await this.testCase(ruleId, caseId);
    await this.db.manager.delete(RuleTestCase, { id: caseId, rule_id: ruleId });
    return json;
  }

  private async testCase(ruleId: string, caseId: string): Promise<TestCaseJson> {
    const { rule, parameters } = await this.forEvaluation(ruleId);
    return toCaseJson(await this.findCase(this.db.manager, ruleId, caseId), rule, parameters);
  }

  private async findCase(m: EntityManager, ruleId: string, caseId: string, lock = false): Promise<RuleTestCase> {
    const c = await m.findOne(RuleTestCase, { where: { id: caseId, rule_id: ruleId }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    if (!c) throw notFound('Test case');
    return c;
  }

  /**
   * The rule and the parameters its conditions and the answers name; the answers are checked
   * against those parameters' types (400 on an unknown parameter or a wrong type).
   */
  private async forEvaluation(ruleId: string, answers?: Record<string, unknown>, m: EntityManager = this.db.manager) {
    const rule = ruleSnapshot(await this.find(m, ruleId));
    const ids = [...new Set([...referencedParameterIds([rule]), ...Object.keys(answers ?? {})])];
    const parameters = await parametersById(m, ids);
    if (answers) {
      const errors = answerErrors(answers, new Map(parameters.map((p) => [p.id, p])));
      if (errors.length) throw validationFailed(errors);
    }
    return { rule, parameters };
  }

  private async find(m: EntityManager, id: string, lock = false): Promise<Rule> {
    const qb = this.live(m).where('r.id = :id', { id });
    if (lock) qb.setLock('pessimistic_write', undefined, ['r']);
    const rule = await qb.getOne();
    if (!rule) throw notFound('Rule');
    return rule;
  }

  /** The rule set a rule goes into; an unknown one is a bad field of the body, not a missing URL. */
  private async ruleSetFor(m: EntityManager, ruleSetId: string): Promise<void> {
    const set = await m.findOne(RuleSet, { where: { id: ruleSetId, deleted_at: IsNull() }, lock: { mode: 'pessimistic_read' } });
    if (!set) throw validationFailed([{ field: 'rule_set_id', message: 'Rule set not found.' }]);
  }

  /**
   * Checks and normalises conditions and actions; the parameters used are locked (FOR SHARE)
   * until the rule is saved, so none can be deleted in between.
   */
  private async content(m: EntityManager, rawConditions: Record<string, unknown>[], rawActions: Record<string, unknown>[]) {
    const { conditions, errors } = readConditions(rawConditions, await loadCatalogue(m));
    const actions = readActions(rawActions);
    const all: FieldError[] = [...errors, ...actions.errors];
    if (all.length) throw validationFailed(all);
    const ids = [...new Set(conditions.map((c) => c.parameter))];
    const locked = await parametersById(m, ids, true);
    if (locked.length !== ids.length) throw validationFailed([{ field: 'conditions', message: 'A parameter used by a condition was just deleted.' }]);
    return { conditions, actions: actions.actions };
  }
}

function referenceTime(raw: string | null | undefined): Date {
  return raw ? new Date(raw) : new Date();
}

function toCaseJson(c: RuleTestCase, rule: EngineRule, parameters: readonly EngineParameter[]): TestCaseJson {
  const expected = fromStoredOutcome(c.expected_outcome);
  const actual = runRule(rule, c.answers, parameters, c.reference_date ?? new Date()).outcome;
  return {
    id: c.id, rule_id: c.rule_id, name: c.name, answers: c.answers, expected_outcome: expected,
    reference_date: iso(c.reference_date), actual_outcome: actual, passed: actual === expected,
    created_by: c.created_by, created_at: iso(c.created_at)!, updated_at: iso(c.updated_at)!,
  };
}

