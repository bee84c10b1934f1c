import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { conflict, DomainError, notFound } from '../../common/errors';
import { idFilter, ListQuery, Page } from '../../common/pagination';
import { criterionFitProblems, type CriterionSpec, type EngineParameter } from '@cds/engine';
import {
  PARAMETER_CATEGORIES,
  PARAMETER_DATA_TYPES,
  PARAMETER_WRITABLE_FIELDS,
  type ChangeType,
  type ParameterJson,
  type SeedResultJson,
} from '@cds/contracts';
import type { AuthUser } from '../../common/auth-user';
// The chat asks exactly this text: the override, else a polished question that is not stale, else the default.
import { PolishService, questionText } from '../polish';
import { boolFilter, iso, oneOfFilter, pgCode, sameJson, textFilter } from '../../common/api-helpers';
import { loincProblem } from './loinc';
import { DIABETES_TEMPLATES } from './diabetes-templates';
import { Parameter } from './parameter.entity';
import { ParametersRepository, type RuleUse } from './parameters.repository';
import type { ActivationDto, CloneParameterDto, CreateParameterDto, FromTemplateDto, UpdateParameterDto } from './parameters.dto';

/** Fields PUT may change (the contract's writable fields but the reason); the rest is the server's (version, activation, polishing). */
type Editable = Exclude<(typeof PARAMETER_WRITABLE_FIELDS)[number], 'change_reason'>;
const EDITABLE = PARAMETER_WRITABLE_FIELDS.filter((f): f is Editable => f !== 'change_reason');

/** The fields the change history records: the editable ones and the server's flags; `version` shows which edit it was. */
const AUDITED = [...EDITABLE, 'is_template', 'version', 'is_active'] as const;
type Audited = (typeof AUDITED)[number];
type Snapshot = Partial<Record<Audited, unknown>>;

export { PARAMETER_SORTABLE } from './parameters.repository';

/**
 * A criterion whose take cannot be the parameter's answer (a count on a yes/no parameter, the latest
 * value on a text) is refused, naming the field: the record would answer a question the rules do not ask.
 */
function assertCriterionFits(rules: unknown, dataType: string): void {
  const criterion = (rules as { criterion?: CriterionSpec } | null | undefined)?.criterion;
  if (!criterion) return;
  const problems = criterionFitProblems(criterion, dataType, 'validation_rules.criterion');
  if (problems.length)
    throw new DomainError(
      'validation_failed',
      problems.map((p) => `${p.field} ${p.message}`).join('; '),
      problems.map((p) => ({ field: p.field, message: p.message })),
    );
}
/** The parameter list's filter keys; its ListQueryPipe refuses any other. */
export const PARAMETER_FILTERS = ['q', 'category', 'data_type', 'is_template', 'is_active', 'id'];
const COPY = ' (copy)';

export function toParameterJson(p: Parameter): ParameterJson {
  return {
    id: p.id,
    name: p.name,
    display_name: p.display_name,
    description: p.description,
    data_type: p.data_type,
    category: p.category,
    units: p.units,
    is_required: p.is_required,
    is_template: p.is_template,
    template_name: p.template_name,
    is_diabetes_specific: (p.template_name ?? '').toLowerCase().includes('diabetes'),
    version: p.version,
    is_active: p.is_active,
    validation_rules: p.validation_rules ?? {},
    loinc_code: p.loinc_code,
    question_text: questionText(p),
    question_override: p.question_override,
    polished_question: p.polished_question,
    polished_provider: p.polished_provider,
    polished_input_hash: p.polished_input_hash,
    polished_at: iso(p.polished_at),
    created_by: p.created_by,
    created_at: iso(p.created_at)!,
    updated_at: iso(p.updated_at)!,
  };
}

/** What the engine needs of a parameter (and what a published version snapshots). */
export function toEngineParameter(p: Parameter): EngineParameter {
  return {
    id: p.id,
    name: p.name,
    display_name: p.display_name,
    data_type: p.data_type,
    units: p.units,
    validation_rules: p.validation_rules ?? {},
    is_active: p.is_active,
  };
}

function snapshot(p: Partial<Parameter>): Snapshot {
  return Object.fromEntries(AUDITED.filter((k) => p[k] !== undefined).map((k) => [k, p[k]]));
}

@Injectable()
export class ParametersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: ParametersRepository,
    private readonly polish: PolishService,
  ) {}

  // polish: after the commit, queue polishing when the question is missing or its input changed; never fails the save.
  private async queuePolish(json: ParameterJson): Promise<ParameterJson> {
    await this.polish.parameterSaved(json);
    return json;
  }

  async list(q: ListQuery): Promise<Page<ParameterJson>> {
    const f = q.filter;
    const ids = idFilter(f);
    const text = textFilter(f, 'q');
    const categories = oneOfFilter(f, 'category', PARAMETER_CATEGORIES);
    const dataTypes = oneOfFilter(f, 'data_type', PARAMETER_DATA_TYPES);
    const isTemplate = boolFilter(f, 'is_template');
    // Active only by default; a lookup by id (react-admin getMany) must also find deactivated ones.
    const isActive = f.is_active === 'all' ? undefined : (boolFilter(f, 'is_active') ?? (ids ? undefined : true));
    const { rows, total } = await this.repo.list(q, { ids, text, categories, dataTypes, isTemplate, isActive });
    return new Page('parameters', rows.map(toParameterJson), total, q.offset);
  }

  async get(id: string): Promise<ParameterJson> {
    const p = await this.repo.find(id);
    if (!p) throw notFound('Parameter');
    return toParameterJson(p);
  }

  async templates(): Promise<ParameterJson[]> {
    return (await this.repo.byDisplayName('templates')).map(toParameterJson);
  }

  /** The LOINC codes stored now for these parameters (for the assessments and fhir modules). */
  loincCodes(ids: readonly string[]): Promise<Map<string, string>> {
    return this.repo.loincCodes(ids);
  }

  /** Active, non-template parameters in the engine's shape (for the assessments module). */
  async activeEngineParameters(): Promise<EngineParameter[]> {
    return (await this.repo.byDisplayName('active')).map(toEngineParameter);
  }

  async create(actor: AuthUser, dto: CreateParameterDto): Promise<ParameterJson> {
    assertCriterionFits(dto.validation_rules, dto.data_type);
    const id = await this.tx(async (m) => {
      const row: Partial<Parameter> = {
        name: dto.name,
        display_name: dto.display_name,
        description: dto.description || null,
        data_type: dto.data_type,
        category: dto.category,
        units: dto.units || null,
        is_required: dto.is_required ?? true,
        is_template: dto.is_template ?? false,
        template_name: dto.template_name || null,
        validation_rules: dto.validation_rules ?? {},
        loinc_code: dto.loinc_code || null,
        question_override: dto.question_override || null,
        version: 1,
        is_active: true,
        created_by: actor.id,
      };
      return this.insertWithHistory(m, row, actor, dto.change_reason);
    });
    return this.queuePolish(await this.get(id));
  }

  /** An edit bumps the version and records the fields that changed, old and new. */
  async update(actor: AuthUser, id: string, dto: UpdateParameterDto): Promise<ParameterJson> {
    await this.tx(async (m) => {
      const p = await this.lock(m, id);
      const next: Partial<Parameter> = {};
      for (const key of EDITABLE) {
        if (dto[key] === undefined) continue;
        const value = typeof dto[key] === 'string' && dto[key] === '' && key !== 'name' && key !== 'display_name' ? null : dto[key];
        if (!sameJson(p[key], value)) Object.assign(next, { [key]: value });
      }
      if (Object.keys(next).length === 0) return;
      if (next.validation_rules !== undefined || next.data_type !== undefined)
        assertCriterionFits(next.validation_rules ?? p.validation_rules, next.data_type ?? p.data_type);
      if (next.name !== undefined && (p.is_active || p.is_template)) await this.assertNameFree(m, next.name, p.is_template, p.id);
      if (next.data_type !== undefined) {
        const uses = await this.repo.rulesUsing(m, p.id);
        if (uses.length) {
          throw conflict(
            `The data type of ${p.display_name} cannot change while ${describeUses(uses)} use it: their conditions were written for ${p.data_type}.`,
            { rules: uses },
          );
        }
      }
      next.version = p.version + 1;
      const before = snapshot(Object.fromEntries(Object.keys(next).map((k) => [k, p[k as keyof Parameter]])) as Partial<Parameter>);
      await this.repo.update(m, id, next);
      await this.recordChange(m, { id, name: next.name ?? p.name }, 'updated', before, snapshot(next), actor, dto.change_reason);
    });
    return this.queuePolish(await this.get(id));
  }

  /**
   * A parameter that any rule uses cannot be deleted (the rule would lose its meaning):
   * deactivate it instead. The history row survives the delete.
   */
  async remove(actor: AuthUser, id: string, reason?: string): Promise<ParameterJson> {
    return this.tx(async (m) => {
      const p = await this.lock(m, id);
      const uses = await this.repo.rulesUsing(m, id);
      if (uses.length) {
        throw conflict(`${p.display_name} is used by ${describeUses(uses)}; deactivate it instead of deleting it.`, { rules: uses });
      }
      const json = toParameterJson(p);
      await this.repo.delete(m, id);
      await this.recordChange(m, p, 'deleted', snapshot(p), null, actor, reason);
      return json;
    });
  }

  async setActivation(actor: AuthUser, id: string, dto: ActivationDto): Promise<ParameterJson> {
    await this.tx(async (m) => {
      const p = await this.lock(m, id);
      if (p.is_active === dto.is_active) return;
      if (dto.is_active && !p.is_template) await this.assertNameFree(m, p.name, false, p.id);
      await this.repo.update(m, id, { is_active: dto.is_active });
      await this.recordChange(
        m,
        p,
        dto.is_active ? 'activated' : 'deactivated',
        { is_active: p.is_active },
        { is_active: dto.is_active },
        actor,
        dto.change_reason,
      );
    });
    return this.get(id);
  }

  /** docs/product-spec.md section 7: a copy of the template, with overrides; a real parameter (not a template), version 1, active. */
  async fromTemplate(actor: AuthUser, dto: FromTemplateDto): Promise<ParameterJson> {
    const o = dto.overrides ?? {};
    const id = await this.tx(async (m) => {
      const t = await this.repo.findTemplate(m, dto.template_id);
      if (!t) throw notFound('Parameter template');
      if (o.validation_rules) assertCriterionFits(o.validation_rules, t.data_type);
      const row: Partial<Parameter> = {
        name: o.name ?? t.name,
        display_name: o.display_name ?? t.display_name,
        description: o.description !== undefined ? o.description || null : t.description,
        data_type: t.data_type,
        category: t.category,
        units: o.units !== undefined ? o.units || null : t.units,
        validation_rules: o.validation_rules ?? t.validation_rules,
        loinc_code: o.loinc_code !== undefined ? o.loinc_code || null : t.loinc_code,
        // The template's own setting unless overridden: a template marked "Required: No" used to
        // become "Yes" on the copy (the spec's "defaults true"), which no one who read the template expected.
        is_required: o.is_required ?? t.is_required,
        is_template: false,
        template_name: t.template_name,
        question_override: t.question_override,
        version: 1,
        is_active: true,
        created_by: actor.id,
      };
      return this.insertWithHistory(m, row, actor, dto.change_reason ?? `Created from template "${t.display_name}"`);
    });
    return this.queuePolish(await this.get(id));
  }

  /** A real, independent copy under a new name; polishing starts afresh since the wording may differ. */
  async clone(actor: AuthUser, id: string, dto: CloneParameterDto): Promise<ParameterJson> {
    const newId = await this.tx(async (m) => {
      const s = await this.repo.find(id, m);
      if (!s) throw notFound('Parameter');
      const row: Partial<Parameter> = {
        name: dto.name,
        display_name: dto.display_name ?? `${s.display_name.slice(0, 200 - COPY.length)}${COPY}`,
        description: s.description,
        data_type: s.data_type,
        category: s.category,
        units: s.units,
        is_required: s.is_required,
        is_template: s.is_template,
        template_name: s.template_name,
        validation_rules: s.validation_rules,
        loinc_code: s.loinc_code,
        question_override: s.question_override,
        version: 1,
        is_active: true,
        created_by: actor.id,
      };
      return this.insertWithHistory(m, row, actor, dto.change_reason ?? `Cloned from "${s.name}"`);
    });
    return this.queuePolish(await this.get(newId));
  }

  /** Creates whichever of the diabetes templates (the spec's six, then issue 20's) do not exist yet (matched by name). */
  async seedTemplates(actor: AuthUser): Promise<SeedResultJson> {
    const createdIds = await this.tx(async (m) => {
      const ids: string[] = [];
      for (const t of DIABETES_TEMPLATES) {
        const loinc = t.loinc_code === null ? null : loincProblem(t.loinc_code);
        if (loinc) throw new Error(`Template "${t.name}": ${loinc}`);
        const p = await this.repo.insertTemplateIfMissing(m, t, actor.id);
        if (!p) continue;
        await this.recordChange(m, p, 'created', null, snapshot(p), actor, 'Seeded diabetes parameter template');
        ids.push(p.id);
      }
      return ids;
    });
    const created = createdIds.length;
    return {
      created,
      message:
        created > 0
          ? `Created ${created} diabetes parameter templates.`
          : 'All diabetes parameter templates already exist; none were created.',
      templates: (await this.templates()).filter((t) => DIABETES_TEMPLATES.some((d) => d.name === t.name.toLowerCase())),
    };
  }

  private async insertWithHistory(m: EntityManager, row: Partial<Parameter>, actor: AuthUser, reason?: string): Promise<string> {
    await this.assertNameFree(m, row.name!, row.is_template!);
    const saved = await this.repo.insert(m, row);
    await this.recordChange(m, saved, 'created', null, snapshot(saved), actor, reason);
    return saved.id;
  }

  /** Writes one change-history row; always called inside the transaction of the change itself. */
  private recordChange(
    m: EntityManager,
    p: { id: string; name: string },
    change_type: ChangeType,
    old_values: Snapshot | null,
    new_values: Snapshot | null,
    actor: AuthUser,
    reason?: string | null,
  ): Promise<void> {
    return this.repo.recordChange(m, {
      parameter_id: p.id,
      parameter_name: p.name,
      change_type,
      old_values,
      new_values,
      changed_by: actor.id,
      change_reason: reason?.trim() || null,
    });
  }

  private async lock(m: EntityManager, id: string): Promise<Parameter> {
    const p = await this.repo.lock(m, id);
    if (!p) throw notFound('Parameter');
    return p;
  }

  private async assertNameFree(m: EntityManager, name: string, isTemplate: boolean, exceptId?: string): Promise<void> {
    if (await this.repo.nameTaken(m, name, isTemplate, exceptId)) throw nameTaken(name, isTemplate);
  }

  /** A transaction whose constraint violations come back as the domain's 409s. */
  private async tx<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (e) {
      if (pgCode(e) === '23505') throw conflict('A parameter with this name already exists.');
      if (pgCode(e) === '23503') throw conflict('This parameter is still referenced elsewhere; deactivate it instead.');
      throw e;
    }
  }
}

function nameTaken(name: string, isTemplate: boolean) {
  return conflict(isTemplate ? `A template named "${name}" already exists.` : `An active parameter named "${name}" already exists.`);
}

function describeUses(uses: RuleUse[]): string {
  const names = uses
    .slice(0, 5)
    .map((u) => `"${u.name}"`)
    .join(', ');
  const more = uses.length > 5 ? ` and ${uses.length - 5} more` : '';
  return `${uses.length === 1 ? '1 rule' : `${uses.length} rules`} (${names}${more})`;
}
