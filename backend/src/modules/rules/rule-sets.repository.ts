import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import type { RuleSetJson } from '@cds/contracts';
import { likePattern, type ListQuery } from '../../common/pagination';
import type { Stored } from '../../common/stored';
import { RuleSetTestCase } from './rule-set-test-case.entity';
import { RuleSet } from './rule-set.entity';

/** A rule set as listed: its columns, how many active rules it has and its latest version. */
export type RuleSetRow = Omit<Stored<RuleSetJson, 'created_at' | 'updated_at' | 'published_at'>, 'content_pack'> & {
  content_pack: string | null;
};

/** The list's filters, already checked by the service. */
export interface RuleSetListFilter {
  ids?: string[];
  published?: boolean;
  template?: boolean;
  active?: boolean;
  search?: string;
}

const SORT: Record<string, string> = {
  created_at: 'rs.created_at',
  name: 'lower(rs.name)',
  updated_at: 'rs.updated_at',
  version: 'rs.version',
};
export const RULE_SET_SORTABLE = Object.keys(SORT);

/** Rule sets (undeleted ones; a delete is soft) and their vignettes: every query on them. */
@Injectable()
export class RuleSetsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base() {
    return this.db
      .createQueryBuilder()
      .from('rule_sets', 'rs')
      .select([
        'rs.id AS id',
        'rs.name AS name',
        'rs.description AS description',
        'rs.source AS source',
        'rs.is_active AS is_active',
        'rs.is_published AS is_published',
        'rs.is_template AS is_template',
        'rs.content_pack AS content_pack',
        'rs.version AS version',
        'rs.created_by AS created_by',
        'rs.created_at AS created_at',
        'rs.updated_at AS updated_at',
      ])
      .addSelect('(SELECT count(*)::int FROM rules r WHERE r.rule_set_id = rs.id AND r.is_active)', 'rule_count')
      .addSelect('(SELECT max(v.number) FROM rule_set_versions v WHERE v.rule_set_id = rs.id)', 'latest_version')
      .addSelect('(SELECT max(v.published_at) FROM rule_set_versions v WHERE v.rule_set_id = rs.id)', 'published_at')
      .where('rs.deleted_at IS NULL');
  }

  /**
   * A shipped content pack's template is a catalogue entry (its rules live in the code and are
   * installed by from-template), not a rule set to select, edit or publish: it is listed by
   * `templates()` only.
   */
  async list(q: ListQuery, f: RuleSetListFilter): Promise<{ rows: RuleSetRow[]; total: number }> {
    const qb = this.base().andWhere('rs.content_pack IS NULL');
    if (f.ids) qb.andWhere('rs.id IN (:...ids)', { ids: f.ids });
    if (f.published !== undefined) qb.andWhere('rs.is_published = :published', { published: f.published });
    if (f.template !== undefined) qb.andWhere('rs.is_template = :template', { template: f.template });
    if (f.active !== undefined) qb.andWhere('rs.is_active = :active', { active: f.active });
    if (f.search) qb.andWhere('rs.name ILIKE :search', { search: likePattern(f.search) });
    const total = await qb.clone().getCount();
    const rows = await qb
      .orderBy(SORT[q.sort.field], q.sort.order)
      .addOrderBy('rs.id', q.sort.order)
      .offset(q.offset)
      .limit(q.limit)
      .getRawMany<RuleSetRow>();
    return { rows, total };
  }

  async findRow(id: string): Promise<RuleSetRow | null> {
    return (await this.base().andWhere('rs.id = :id', { id }).getRawOne<RuleSetRow>()) ?? null;
  }

  /** Active template rule sets, by name. */
  templates(): Promise<RuleSetRow[]> {
    return this.base().andWhere('rs.is_template AND rs.is_active').orderBy('lower(rs.name)').addOrderBy('rs.id').getRawMany<RuleSetRow>();
  }

  findActiveTemplate(m: EntityManager, id: string): Promise<RuleSet | null> {
    return m.findOne(RuleSet, { where: { id, is_template: true, is_active: true, deleted_at: IsNull() } });
  }

  async insert(m: EntityManager, row: Partial<RuleSet>): Promise<string> {
    return (await m.save(RuleSet, m.create(RuleSet, row))).id;
  }

  async update(m: EntityManager, id: string, next: Partial<RuleSet>): Promise<void> {
    await m.update(RuleSet, { id }, next);
  }

  vignettes(m: EntityManager, ruleSetId: string): Promise<RuleSetTestCase[]> {
    return m.find(RuleSetTestCase, { where: { rule_set_id: ruleSetId }, order: { created_at: 'ASC', id: 'ASC' } });
  }

  findVignette(m: EntityManager, ruleSetId: string, caseId: string, lock = false): Promise<RuleSetTestCase | null> {
    return m.findOne(RuleSetTestCase, {
      where: { id: caseId, rule_set_id: ruleSetId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async insertVignette(m: EntityManager, row: Partial<RuleSetTestCase>): Promise<string> {
    return (await m.save(RuleSetTestCase, m.create(RuleSetTestCase, row))).id;
  }

  async updateVignette(m: EntityManager, id: string, next: Partial<RuleSetTestCase>): Promise<void> {
    await m.save(RuleSetTestCase, { id, ...next });
  }

  async deleteVignette(ruleSetId: string, caseId: string): Promise<void> {
    await this.db.manager.delete(RuleSetTestCase, { id: caseId, rule_set_id: ruleSetId });
  }
}

// Shared by the rules module's services and the publishing gate, inside their transactions.

/** A rule set that was not deleted, optionally locked until the transaction ends. */
export function liveRuleSet(m: EntityManager, id: string, lock?: 'pessimistic_write' | 'pessimistic_read'): Promise<RuleSet | null> {
  return m.findOne(RuleSet, { where: { id, deleted_at: IsNull() }, ...(lock ? { lock: { mode: lock } } : {}) });
}

/** A rule set whether deleted or not. */
export function anyRuleSet(m: EntityManager, id: string): Promise<RuleSet | null> {
  return m.findOne(RuleSet, { where: { id } });
}

/** The vignettes of the given rule sets, oldest first. */
export function vignettesOfSets(m: EntityManager, setIds: string[]): Promise<RuleSetTestCase[]> {
  return m
    .createQueryBuilder(RuleSetTestCase, 'tc')
    .where('tc.rule_set_id IN (:...setIds)', { setIds })
    .orderBy('tc.created_at', 'ASC')
    .addOrderBy('tc.id', 'ASC')
    .getMany();
}
