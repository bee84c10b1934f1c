import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { notFound, validationFailed, type FieldError } from '../../common/errors';
import { idFilter, ListQuery, Page, UUID } from '../../common/pagination';
import { evaluateRule, type Answers, type EngineParameter, type EngineRule } from '@cds/engine';
import type { RuleJson, RuleTestResultJson, TestCaseJson } from '@cds/contracts';
import type { AuthUser } from '../../common/auth-user';
import { boolFilter, iso, textFilter } from '../../common/api-helpers';
import { answerErrors, fromStoredOutcome, readActions, readConditions, toStoredOutcome } from './rule-content';
import { loadCatalogue, parametersById } from './rule-store';
import type { CreateRuleDto, CreateTestCaseDto, TestRuleDto, UpdateRuleDto, UpdateTestCaseDto } from './rules.dto';
import type { RuleTestCase } from './rule-test-case.entity';
import type { Rule } from './rule.entity';
import { liveRuleSet } from './rule-sets.repository';
import { RULE_SORTABLE, RulesRepository } from './rules.repository';
import { referencedParameterIds, ruleSnapshot } from './snapshot';

export { RULE_SORTABLE };
/** The rule list's filter keys; its ListQueryPipe refuses any other. */
export const RULE_FILTERS = ['rule_set_id', 'is_active', 'q', 'id'];
const COPY = ' (copy)';

export function toRuleJson(r: Rule): RuleJson {
  return {
    id: r.id,
    rule_set_id: r.rule_set_id,
    name: r.name,
    description: r.description,
    source: r.source ?? null,
    priority: r.priority,
    conditions: r.conditions,
    actions: r.actions,
    is_active: r.is_active,
    created_by: r.created_by,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

/** One rule against one set of answers, through the engine; `now` anchors "within days". */
export function runRule(rule: EngineRule, answers: Answers, parameters: readonly EngineParameter[], now: Date): RuleTestResultJson {
  const { result, trace } = evaluateRule(rule, answers, parameters, { now });
  return { rule_id: rule.id, outcome: result, matched: result === true, trace, actions: result === true ? rule.actions : [] };
}

@Injectable()
export class RulesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: RulesRepository,
  ) {}

  async list(q: ListQuery): Promise<Page<RuleJson>> {
    const f = q.filter;
    const ids = idFilter(f);
    if (f.rule_set_id !== undefined && (typeof f.rule_set_id !== 'string' || !UUID.test(f.rule_set_id))) {
      throw validationFailed([{ field: 'filter.rule_set_id', message: 'filter.rule_set_id must be a rule set id' }]);
    }
    // Deleting a rule is a soft delete: deleted rules are left out unless asked for.
    const isActive = f.is_active === 'all' ? undefined : (boolFilter(f, 'is_active') ?? (ids ? undefined : true));
    const text = textFilter(f, 'q');
    const { rows, total } = await this.repo.list(q, { ids, ruleSetId: f.rule_set_id as string | undefined, isActive, text });
    return new Page('rules', rows.map(toRuleJson), total, q.offset);
  }

  async get(id: string): Promise<RuleJson> {
    return toRuleJson(await this.find(this.db.manager, id));
  }

  async create(actor: AuthUser, dto: CreateRuleDto): Promise<RuleJson> {
    const id = await this.db.transaction(async (m) => {
      await this.ruleSetFor(m, dto.rule_set_id);
      const content = await this.content(m, dto.conditions ?? [], dto.actions ?? []);
      return this.repo.insert(m, {
        rule_set_id: dto.rule_set_id,
        name: dto.name,
        description: dto.description ?? '',
        source: dto.source || null,
        priority: dto.priority ?? 0,
        conditions: content.conditions,
        actions: content.actions,
        is_active: dto.is_active ?? true,
        created_by: actor.id,
      });
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
      if (dto.source !== undefined) next.source = dto.source || null;
      if (dto.priority !== undefined) next.priority = dto.priority;
      if (dto.is_active !== undefined) next.is_active = dto.is_active;
      if (dto.conditions !== undefined || dto.actions !== undefined) {
        const content = await this.content(m, dto.conditions ?? [], dto.actions ?? []);
        if (dto.conditions !== undefined) next.conditions = content.conditions;
        if (dto.actions !== undefined) next.actions = content.actions;
      }
      if (Object.keys(next).length) await this.repo.update(m, id, next);
    });
    return this.get(id);
  }

  /** docs/product-spec.md section 4: deleting a rule sets is_active to false; it stays for the record. */
  async remove(id: string): Promise<RuleJson> {
    await this.db.transaction(async (m) => {
      const rule = await this.find(m, id, true);
      if (rule.is_active) await this.repo.deactivate(m, id);
    });
    return this.get(id);
  }

  /** A real copy in the same rule set, named "{name} (copy)", with its own condition and action ids. */
  async clone(actor: AuthUser, id: string): Promise<RuleJson> {
    const newId = await this.db.transaction(async (m) => {
      const r = await this.find(m, id);
      await this.ruleSetFor(m, r.rule_set_id);
      return this.repo.insert(m, {
        rule_set_id: r.rule_set_id,
        name: `${r.name.slice(0, 200 - COPY.length)}${COPY}`,
        description: r.description,
        source: r.source,
        priority: r.priority,
        is_active: true,
        created_by: actor.id,
        conditions: r.conditions.map((c) => ({ ...c, id: randomUUID() })),
        actions: r.actions.map((a) => ({ ...a, id: randomUUID() })),
      });
    });
    return this.get(newId);
  }

  /** Runs the rule as it is now (saved, not published) against the given answers. */
  async test(id: string, dto: TestRuleDto): Promise<RuleTestResultJson> {
    const { rule, parameters } = await this.forEvaluation(id, dto.answers);
    return runRule(rule, dto.answers as Answers, parameters, referenceTime(dto.reference_date));
  }

  async listTestCases(ruleId: string): Promise<TestCaseJson[]> {
    const { rule, parameters } = await this.forEvaluation(ruleId);
    const cases = await this.repo.testCases(ruleId);
    return cases.map((c) => toCaseJson(c, rule, parameters));
  }

  async createTestCase(actor: AuthUser, ruleId: string, dto: CreateTestCaseDto): Promise<TestCaseJson> {
    await this.forEvaluation(ruleId, dto.answers);
    const id = await this.repo.insertTestCase({
      rule_id: ruleId,
      name: dto.name,
      answers: dto.answers as Answers,
      expected_outcome: toStoredOutcome(dto.expected_outcome),
      reference_date: dto.reference_date ? new Date(dto.reference_date) : null,
      created_by: actor.id,
    });
    return this.testCase(ruleId, id);
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
      if (Object.keys(next).length) await this.repo.updateTestCase(m, caseId, next);
    });
    return this.testCase(ruleId, caseId);
  }

  async removeTestCase(ruleId: string, caseId: string): Promise<TestCaseJson> {
    const json = await this.testCase(ruleId, caseId);
    await this.repo.deleteTestCase(ruleId, caseId);
    return json;
  }

  private async testCase(ruleId: string, caseId: string): Promise<TestCaseJson> {
    const { rule, parameters } = await this.forEvaluation(ruleId);
    return toCaseJson(await this.findCase(this.db.manager, ruleId, caseId), rule, parameters);
  }

  private async findCase(m: EntityManager, ruleId: string, caseId: string, lock = false): Promise<RuleTestCase> {
    const c = await this.repo.findTestCase(m, ruleId, caseId, lock);
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
    const rule = await this.repo.find(m, id, lock);
    if (!rule) throw notFound('Rule');
    return rule;
  }

  /** The rule set a rule goes into; an unknown one is a bad field of the body, not a missing URL. */
  private async ruleSetFor(m: EntityManager, ruleSetId: string): Promise<void> {
    const set = await liveRuleSet(m, ruleSetId, 'pessimistic_read');
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
    if (locked.length !== ids.length)
      throw validationFailed([{ field: 'conditions', message: 'A parameter used by a condition was just deleted.' }]);
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
    id: c.id,
    rule_id: c.rule_id,
    name: c.name,
    answers: c.answers,
    expected_outcome: expected,
    reference_date: iso(c.reference_date),
    actual_outcome: actual,
    passed: actual === expected,
    created_by: c.created_by,
    created_at: iso(c.created_at)!,
    updated_at: iso(c.updated_at)!,
  };
}
