import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { DomainError, notFound } from '../../common/errors';
import { idFilter, likePattern, ListQuery, Page, parseListQuery } from '../../common/pagination';
import { analyzeRuleSet, type EngineRule, type Finding } from '../../engine';
import type { AuthUser } from '../auth/auth-user';
import { assertFilterKeys, boolFilter, iso, textFilter } from '../parameters/api-helpers';
import { activeRules, analysisParameters, findRuleSet } from './rule-store';
import type { AnalyzeDraftDto, DraftRuleDto } from './rules.dto';
import type { CreateRuleSetDto, RuleSetFromTemplateDto, UpdateRuleSetDto } from './rule-sets.dto';
import { RuleSet } from './rule-set.entity';
import { Rule } from './rule.entity';
import { ruleSnapshot } from './snapshot';

export interface RuleSetJson {
  id: string;
  name: string;
  description: string | null;
  is_active: boolean;
  is_published: boolean;
  is_template: boolean;
  /** The latest published version's number (1 before the first publish). */
  version: number;
  latest_version: number | null;
  published_at: string | null;
  rule_count: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface AnalysisJson {
  rule_set_id: string;
  source: 'saved' | 'draft';
  rule_count: number;
  summary: { error: number; warning: number; info: number };
  findings: Finding[];
}

const SORT: Record<string, string> = { created_at: 'rs.created_at', name: 'lower(rs.name)', updated_at: 'rs.updated_at', version: 'rs.version' };
export const RULE_SET_SORTABLE = Object.keys(SORT);
const FILTERS = ['published', 'template', 'search', 'is_active', 'id'];
export const RULE_SET_PAGE_SIZE = 10;

const bad = (field: string, message: string) => new DomainError('validation_failed', message, [{ field, message }]);

function intParam(name: string, raw: unknown, min: number, max: number): number {
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw bad(name, `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/**
 * react-admin's sort/range/filter, plus the spec's own call: published, template and search
 * (as query parameters or filter keys) and limit/offset, 10 rows per page.
 */
export function parseRuleSetQuery(query: Record<string, unknown>): ListQuery {
  const { limit, offset, published, template, search, ...rest } = query;
  if (limit !== undefined || offset !== undefined) {
    if (rest.range !== undefined) throw bad('range', 'Use either range or limit/offset');
    const from = offset === undefined ? 0 : intParam('offset', offset, 0, 1_000_000);
    const size = limit === undefined ? RULE_SET_PAGE_SIZE : intParam('limit', limit, 1, 100);
    rest.range = JSON.stringify([from, from + size - 1]);
  }
  const q = parseListQuery(rest, { sortable: RULE_SET_SORTABLE, defaultSort: { field: 'created_at', order: 'DESC' }, defaultLimit: RULE_SET_PAGE_SIZE });
  for (const [key, value] of Object.entries({ published, template, search })) if (value !== undefined) q.filter[key] = value;
  return q;
}

@Injectable()
export class RuleSetsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base() {
    return this.db.createQueryBuilder()
      .from('rule_sets', 'rs')
      .select(['rs.id AS id', 'rs.name AS name', 'rs.description AS description', 'rs.is_active AS is_active',
        'rs.is_published AS is_published', 'rs.is_template AS is_template', 'rs.version AS version',
        'rs.created_by AS created_by', 'rs.created_at AS created_at', 'rs.updated_at AS updated_at'])
      .addSelect('(SELECT count(*)::int FROM rules r WHERE r.rule_set_id = rs.id AND r.is_active)', 'rule_count')
      .addSelect('(SELECT max(v.number) FROM rule_set_versions v WHERE v.rule_set_id = rs.id)', 'latest_version')
      .addSelect('(SELECT max(v.published_at) FROM rule_set_versions v WHERE v.rule_set_id = rs.id)', 'published_at')
      .where('rs.deleted_at IS NULL');
  }

  async list(q: ListQuery): Promise<Page<RuleSetJson>> {
    const f = q.filter;
    assertFilterKeys(f, FILTERS);
    const qb = this.base();
    const ids = idFilter(f);
    if (ids) qb.andWhere('rs.id IN (:...ids)', { ids });
    const published = boolFilter(f, 'published');
    if (published !== undefined) qb.andWhere('rs.is_published = :published', { published });
    const template = boolFilter(f, 'template');
    if (template !== undefined) qb.andWhere('rs.is_template = :template', { template });
    const active = boolFilter(f, 'is_active');
    if (active !== undefined) qb.andWhere('rs.is_active = :active', { active });
    const search = textFilter(f, 'search');
    if (search) qb.andWhere('rs.name ILIKE :search', { search: likePattern(search) });
    const total = await qb.clone().getCount();
    const rows = await qb.orderBy(SORT[q.sort.field], q.sort.order).addOrderBy('rs.id', q.sort.order).offset(q.offset).limit(q.limit).getRawMany();
    return new Page('rule-sets', rows.map(toJson), total, q.offset);
  }

  async get(id: string): Promise<RuleSetJson> {
    const row = await this.base().andWhere('rs.id = :id', { id }).getRawOne();
    if (!row) throw notFound('Rule set');
    return toJson(row);
  }

  /** Product spec section 7: template rule sets that are active, by name. */
  async templates(): Promise<RuleSetJson[]> {
    const rows = await this.base().andWhere('rs.is_template AND rs.is_active').orderBy('lower(rs.name)').addOrderBy('rs.id').getRawMany();
    return rows.map(toJson);
  }

  async create(actor: AuthUser, dto: CreateRuleSetDto): Promise<RuleSetJson> {
    const saved = await this.db.manager.save(RuleSet, this.db.manager.create(RuleSet, {
      name: dto.name, description: dto.description || null, is_template: dto.is_template ?? false,
      is_active: dto.is_active ?? true, created_by: actor.id,
    }));
    return this.get(saved.id);
  }

  async update(id: string, dto: UpdateRuleSetDto): Promise<RuleSetJson> {
    await this.db.transaction(async (m) => {
      await findRuleSet(m, id, 'pessimistic_write');
      const next: Partial<RuleSet> = {};
      if (dto.name !== undefined) next.name = dto.name;
      if (dto.description !== undefined) next.description = dto.description || null;
      if (dto.is_template !== undefined) next.is_template = dto.is_template;
      if (dto.is_active !== undefined) next.is_active = dto.is_active;
      if (Object.keys(next).length) await m.update(RuleSet, { id }, next);
    });
    return this.get(id);
  }

  async setActivation(id: string, isActive: boolean): Promise<RuleSetJson> {
    return this.update(id, { is_active: isActive });
  }

  /**
   * Soft delete: the set and its rules leave every list and assessments stop using it, but
   * its published versions stay, since past assessments were decided with them.
   */
  async remove(actor: AuthUser, id: string): Promise<RuleSetJson> {
    const json = await this.get(id);
    await this.db.transaction(async (m) => {
      await findRuleSet(m, id, 'pessimistic_write');
      await m.update(RuleSet, { id }, { deleted_at: new Date(), deleted_by: actor.id, is_active: false });
    });
    return { ...json, is_active: false };
  }

  /** A new rule set with the template's description and a copy of each of its active rules. */
  async fromTemplate(actor: AuthUser, dto: RuleSetFromTemplateDto): Promise<RuleSetJson> {
    const id = await this.db.transaction(async (m) => {
      const template = await m.findOne(RuleSet, { where: { id: dto.template_id, is_template: true, is_active: true, deleted_at: IsNull() } });
      if (!template) throw notFound('Rule set template');
      const set = await m.save(RuleSet, m.create(RuleSet, {
        name: dto.name ?? template.name, description: template.description, created_by: actor.id,
      }));
      const rules = await activeRules(m, template.id);
      if (rules.length) {
        await m.save(Rule, rules.map((r) => m.create(Rule, {
          rule_set_id: set.id, name: r.name, description: r.description, priority: r.priority,
          conditions: r.conditions, actions: r.actions, created_by: actor.id,
        })));
      }
      return set.id;
    });
    return this.get(id);
  }

  /** Static analysis of the saved active rules, against every parameter (inactive ones included). */
  async analysis(id: string): Promise<AnalysisJson> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      await findRuleSet(m, id);
      const rules = (await activeRules(m, id)).map(ruleSnapshot);
      return analysisJson(id, 'saved', rules, analyzeRuleSet(rules, await analysisParameters(m)));
    });
  }

  /**
   * Analysis of unsaved designer content: each given rule replaces the saved rule of the same
   * id (is_active false leaves it out), rules without a known id are added, and the other
   * saved active rules are analysed with them.
   */
  async analyzeDraft(id: string, dto: AnalyzeDraftDto): Promise<AnalysisJson> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      await findRuleSet(m, id);
      const saved = (await activeRules(m, id)).map(ruleSnapshot);
      const given = new Map(dto.rules.map((r, i) => [r.id ?? `draft-${i + 1}`, r]));
      const rules: EngineRule[] = [
        ...saved.filter((r) => !given.has(r.id)),
        ...[...given].filter(([, r]) => r.is_active !== false).map(([ruleId, r]) => draftRule(ruleId, id, r)),
      ];
      return analysisJson(id, 'draft', rules, analyzeRuleSet(rules, await analysisParameters(m)));
    });
  }
}

function draftRule(id: string, ruleSetId: string, r: DraftRuleDto): EngineRule {
  return {
    id, rule_set_id: ruleSetId, name: r.name, description: r.description ?? '', priority: r.priority ?? 0,
    conditions: r.conditions as unknown as EngineRule['conditions'], actions: (r.actions ?? []) as unknown as EngineRule['actions'],
  };
}

function analysisJson(id: string, source: 'saved' | 'draft', rules: EngineRule[], findings: Finding[]): AnalysisJson {
  const summary = { error: 0, warning: 0, info: 0 };
  for (const f of findings) summary[f.severity] += 1;
  return { rule_set_id: id, source, rule_count: rules.length, summary, findings };
}

export function toJson(r: Record<string, unknown>): RuleSetJson {
  return {
    id: r.id as string,
    name: r.name as string,
    description: (r.description as string) ?? null,
    is_active: r.is_active as boolean,
    is_published: r.is_published as boolean,
    is_template: r.is_template as boolean,
    version: Number(r.version),
    latest_version: r.latest_version === null || r.latest_version === undefined ? null : Number(r.latest_version),
    published_at: iso(r.published_at as Date),
    rule_count: Number(r.rule_count ?? 0),
    created_by: (r.created_by as string) ?? null,
    created_at: iso(r.created_at as Date)!,
    updated_at: iso(r.updated_at as Date)!,
  };
}
