import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ChangeType, ParameterCategory, ParameterDataType } from '@cds/contracts';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { likePattern, UUID, type ListQuery } from '../../common/pagination';
import type { TemplateSeed } from './diabetes-templates';
import { ParameterChange } from './parameter-change.entity';
import { Parameter } from './parameter.entity';

/** The list's filters, already checked by the service. */
export interface ParameterListFilter {
  ids?: string[];
  text?: string;
  categories?: ParameterCategory[];
  dataTypes?: ParameterDataType[];
  isTemplate?: boolean;
  isActive?: boolean;
}

/** A rule whose conditions name a parameter. */
export interface RuleUse {
  id: string;
  name: string;
  rule_set_id: string;
}

/** One change-history row as written. */
export interface NewParameterChange {
  parameter_id: string;
  parameter_name: string;
  change_type: ChangeType;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
  changed_by: string;
  change_reason: string | null;
}

// Text sorts ignore case, so the order is the same on every database collation (PGlite sorts bytes).
const SORT: Record<string, string> = {
  display_name: 'lower(p.display_name)',
  name: 'lower(p.name)',
  category: 'p.category',
  data_type: 'p.data_type',
  version: 'p.version',
  created_at: 'p.created_at',
  updated_at: 'p.updated_at',
};
export const PARAMETER_SORTABLE = Object.keys(SORT);

/** The parameters aggregate (a parameter and its change history): every query on it. The entity is the row. */
@Injectable()
export class ParametersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(q: ListQuery, f: ParameterListFilter): Promise<{ rows: Parameter[]; total: number }> {
    const qb = this.db.createQueryBuilder(Parameter, 'p');
    if (f.ids) qb.andWhere('p.id IN (:...ids)', { ids: f.ids });
    if (f.text) qb.andWhere('(p.display_name ILIKE :q OR p.name ILIKE :q)', { q: likePattern(f.text) });
    if (f.categories) qb.andWhere('p.category IN (:...category)', { category: f.categories });
    if (f.dataTypes) qb.andWhere('p.data_type IN (:...dataType)', { dataType: f.dataTypes });
    if (f.isTemplate !== undefined) qb.andWhere('p.is_template = :template', { template: f.isTemplate });
    if (f.isActive !== undefined) qb.andWhere('p.is_active = :active', { active: f.isActive });
    const total = await qb.clone().getCount();
    const rows = await qb.orderBy(SORT[q.sort.field], q.sort.order).addOrderBy('p.id').offset(q.offset).limit(q.limit).getMany();
    return { rows, total };
  }

  find(id: string, m: EntityManager = this.db.manager): Promise<Parameter | null> {
    return m.findOne(Parameter, { where: { id } });
  }

  findTemplate(m: EntityManager, id: string): Promise<Parameter | null> {
    return m.findOne(Parameter, { where: { id, is_template: true } });
  }

  /** The parameter, locked until the transaction ends. */
  lock(m: EntityManager, id: string): Promise<Parameter | null> {
    return m.findOne(Parameter, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Templates, or active real parameters, by display name. */
  byDisplayName(where: 'templates' | 'active'): Promise<Parameter[]> {
    return this.db
      .createQueryBuilder(Parameter, 'p')
      .where(where === 'templates' ? 'p.is_template' : 'p.is_active AND NOT p.is_template')
      .orderBy('lower(p.display_name)')
      .addOrderBy('p.id')
      .getMany();
  }

  insert(m: EntityManager, row: Partial<Parameter>): Promise<Parameter> {
    return m.save(Parameter, m.create(Parameter, row));
  }

  async update(m: EntityManager, id: string, next: Partial<Parameter>): Promise<void> {
    await m.update(Parameter, { id }, next as QueryDeepPartialEntity<Parameter>);
  }

  async delete(m: EntityManager, id: string): Promise<void> {
    await m.delete(Parameter, { id });
  }

  /** Whether another template (or another active real parameter) has this name, case-insensitively. */
  nameTaken(m: EntityManager, name: string, isTemplate: boolean, exceptId?: string): Promise<boolean> {
    const qb = m
      .createQueryBuilder(Parameter, 'p')
      .where('lower(p.name) = lower(:name)', { name })
      .andWhere(isTemplate ? 'p.is_template' : 'p.is_active AND NOT p.is_template');
    if (exceptId) qb.andWhere('p.id <> :exceptId', { exceptId });
    return qb.getExists();
  }

  /** The LOINC codes stored now for these parameters (those without one are left out). */
  loincCodes(ids: readonly string[]): Promise<Map<string, string>> {
    return loincCodesOf(this.db.manager, ids);
  }

  /** Every rule (active or soft-deleted: both still exist) whose conditions name the parameter. */
  rulesUsing(m: EntityManager, id: string): Promise<RuleUse[]> {
    return m.query(`SELECT "id", "name", "rule_set_id" FROM "rules" WHERE "conditions" @> $1::jsonb ORDER BY "name", "id"`, [
      JSON.stringify([{ parameter: id }]),
    ]);
  }

  /**
   * Inserts the template unless one of its name exists (ON CONFLICT on the template-name index:
   * two administrators seeding at once create each template once). Null when it existed.
   */
  async insertTemplateIfMissing(m: EntityManager, t: TemplateSeed, createdBy: string): Promise<Parameter | null> {
    const rows: { id: string }[] = await m.query(
      `INSERT INTO "parameters" ("name", "display_name", "description", "data_type", "category", "units", "is_required",
         "is_template", "template_name", "validation_rules", "loinc_code", "created_by", "question_override")
       VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8, $9, $10, $11, $12)
       ON CONFLICT (lower("name")) WHERE "is_template" DO NOTHING RETURNING "id"`,
      [
        t.name,
        t.display_name,
        t.description,
        t.data_type,
        t.category,
        t.units,
        t.is_required,
        t.template_name,
        JSON.stringify(t.validation_rules),
        t.loinc_code,
        createdBy,
        t.question_override ?? null,
      ],
    );
    return rows.length ? m.findOneOrFail(Parameter, { where: { id: rows[0].id } }) : null;
  }

  /** Writes one change-history row, inside the transaction of the change itself. */
  async recordChange(m: EntityManager, change: NewParameterChange): Promise<void> {
    await m.save(ParameterChange, m.create(ParameterChange, change));
  }
}

// For the rules module, inside its own transactions (read through the parameters module's index).

/** Every parameter, inactive ones and templates included, oldest first. */
export function allParameters(m: EntityManager): Promise<Parameter[]> {
  return m.find(Parameter, { order: { created_at: 'ASC', id: 'ASC' } });
}

/** Non-template parameters, active first. */
export function realParameters(m: EntityManager): Promise<Parameter[]> {
  return m.find(Parameter, { where: { is_template: false }, order: { is_active: 'DESC', created_at: 'ASC', id: 'ASC' } });
}

/**
 * Parameters by id (ids that are not UUIDs match nothing). With `share`, the rows are locked
 * until the transaction ends, so a parameter cannot be deleted between a rule's check and its save.
 */
export function parametersByIds(m: EntityManager, ids: readonly string[], share = false): Promise<Parameter[]> {
  const valid = ids.filter((id) => UUID.test(id));
  if (!valid.length) return Promise.resolve([]);
  return m.find(Parameter, {
    where: { id: In(valid) },
    order: { id: 'ASC' },
    ...(share ? { lock: { mode: 'pessimistic_read' as const } } : {}),
  });
}

/** The template of this name (case-insensitive), if any. */
export function templateByName(m: EntityManager, name: string): Promise<Parameter | null> {
  return m.createQueryBuilder(Parameter, 'p').where('p.is_template AND lower(p.name) = lower(:name)', { name }).getOne();
}

/** Active real (non-template) parameters with this LOINC code, oldest first. */
export function activeParametersByCode(m: EntityManager, code: string): Promise<Parameter[]> {
  return m.find(Parameter, { where: { loinc_code: code, is_template: false, is_active: true }, order: { created_at: 'ASC', id: 'ASC' } });
}

/** The active real parameter of this name (case-insensitive; the name is unique among them). */
export function activeParameterByName(m: EntityManager, name: string): Promise<Parameter | null> {
  return m
    .createQueryBuilder(Parameter, 'p')
    .where('p.is_active AND NOT p.is_template AND lower(p.name) = lower(:name)', { name })
    .getOne();
}

export function insertParameterRow(m: EntityManager, row: Partial<Parameter>): Promise<Parameter> {
  return m.save(Parameter, m.create(Parameter, row));
}

export async function insertParameterChange(m: EntityManager, change: NewParameterChange): Promise<void> {
  await m.save(ParameterChange, m.create(ParameterChange, change));
}

/**
 * The LOINC code stored now for each of these parameters, or for every parameter that has one when `ids` is
 * not given: the one way another module reads LOINC codes (kept on the parameter, not on a published
 * snapshot, and editable by administrators).
 */
export async function loincCodesOf(m: EntityManager, ids?: readonly string[]): Promise<Map<string, string>> {
  if (ids && !ids.length) return new Map();
  const rows = await m.find(Parameter, {
    select: { id: true, loinc_code: true },
    where: { ...(ids ? { id: In(ids) } : {}), loinc_code: Not(IsNull()) },
  });
  return new Map(rows.map((r) => [r.id, r.loinc_code!]));
}
