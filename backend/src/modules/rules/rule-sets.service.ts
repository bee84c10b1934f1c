import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { notFound } from '../../common/errors';
import { idFilter, ListQuery, Page } from '../../common/pagination';
import { rankFindings, type Answers, type EngineRule, type Finding } from '@cds/engine';
import type { AnalysisJson, ContentPackJson, RuleSetJson } from '@cds/contracts';
import { ensurePackParameters } from '../parameters';
import { CONTENT_PACKS, packParameterKeys, type ContentPack } from './content/ada-2026';
import type { AuthUser } from '../../common/auth-user';
import { boolFilter, iso, textFilter } from '../../common/api-helpers';
import { combinationFindings, loadCombination, type Combination } from './publish-gate';
import { findRuleSet } from './rule-store';
import { RULE_SET_SORTABLE, RuleSetsRepository, type RuleSetRow } from './rule-sets.repository';
import { activeRules, insertRules, insertRulesReturning } from './rules.repository';
import type { AnalyzeDraftDto, DraftRuleDto } from './rules.dto';
import type { CreateRuleSetDto, RuleSetFromTemplateDto, UpdateRuleSetDto } from './rule-sets.dto';
import type { RuleSet } from './rule-set.entity';
import { ruleSnapshot } from './snapshot';

export { RULE_SET_SORTABLE };

@Injectable()
export class RuleSetsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: RuleSetsRepository,
  ) {}

  async list(q: ListQuery): Promise<Page<RuleSetJson>> {
    const f = q.filter;
    const ids = idFilter(f);
    const published = boolFilter(f, 'published');
    const template = boolFilter(f, 'template');
    const active = boolFilter(f, 'is_active');
    const search = textFilter(f, 'search');
    const { rows, total } = await this.repo.list(q, { ids, published, template, active, search });
    return new Page('rule-sets', rows.map(toJson), total, q.offset);
  }

  async get(id: string): Promise<RuleSetJson> {
    const row = await this.repo.findRow(id);
    if (!row) throw notFound('Rule set');
    return toJson(row);
  }

  /** docs/product-spec.md section 7: template rule sets that are active, by name. */
  async templates(): Promise<RuleSetJson[]> {
    return (await this.repo.templates()).map(toJson);
  }

  async create(actor: AuthUser, dto: CreateRuleSetDto): Promise<RuleSetJson> {
    const id = await this.repo.insert(this.db.manager, {
      name: dto.name,
      description: dto.description || null,
      source: dto.source || null,
      is_template: dto.is_template ?? false,
      is_active: dto.is_active ?? true,
      created_by: actor.id,
    });
    return this.get(id);
  }

  async update(id: string, dto: UpdateRuleSetDto): Promise<RuleSetJson> {
    await this.db.transaction(async (m) => {
      await findRuleSet(m, id, 'pessimistic_write');
      const next: Partial<RuleSet> = {};
      if (dto.name !== undefined) next.name = dto.name;
      if (dto.description !== undefined) next.description = dto.description || null;
      if (dto.source !== undefined) next.source = dto.source || null;
      if (dto.is_template !== undefined) next.is_template = dto.is_template;
      if (dto.is_active !== undefined) next.is_active = dto.is_active;
      if (Object.keys(next).length) await this.repo.update(m, id, next);
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
      await this.repo.update(m, id, { deleted_at: new Date(), deleted_by: actor.id, is_active: false });
    });
    return { ...json, is_active: false };
  }

  /**
   * A new rule set with the template's description and a copy of each of its active rules. A content
   * pack's template installs the pack instead: its parameters, rules and vignettes. One transaction:
   * a refusal leaves nothing written.
   */
  async fromTemplate(actor: AuthUser, dto: RuleSetFromTemplateDto): Promise<RuleSetJson> {
    const id = await this.db.transaction(async (m) => {
      const template = await this.repo.findActiveTemplate(m, dto.template_id);
      if (!template) throw notFound('Rule set template');
      const pack = template.content_pack ? CONTENT_PACKS[template.content_pack] : undefined;
      if (template.content_pack && !pack) throw notFound('Content pack');
      if (pack) return this.installPack(m, actor, pack, dto.name ?? template.name, template.description, template.source);
      const setId = await this.repo.insert(m, {
        name: dto.name ?? template.name,
        description: template.description,
        source: template.source,
        created_by: actor.id,
      });
      const rules = await activeRules(m, template.id);
      await insertRules(
        m,
        rules.map((r) => ({
          rule_set_id: setId,
          name: r.name,
          description: r.description,
          priority: r.priority,
          conditions: r.conditions,
          actions: r.actions,
          source: r.source,
          created_by: actor.id,
        })),
      );
      return setId;
    });
    return this.get(id);
  }

  /**
   * The pack as a draft: the clinic's parameter for each template it reads (created or reused), its
   * rules with their conditions pointing at those parameters, and its vignettes, whose primary
   * recommendation is the engine's first finding among the rules they expect.
   */
  private async installPack(
    m: EntityManager,
    actor: AuthUser,
    pack: ContentPack,
    name: string,
    description: string | null,
    source: string | null,
  ): Promise<string> {
    const params = await ensurePackParameters(m, packParameterKeys(pack), actor.id, `Installed with the content pack "${name}"`);
    const idOf = new Map(params.map((p) => [p.key, p.parameter.id]));
    const setId = await this.repo.insert(m, { name, description, source, created_by: actor.id });
    const rules = await insertRulesReturning(
      m,
      pack.rules.map((r) => ({
        rule_set_id: setId,
        name: r.name,
        description: r.description,
        priority: r.priority,
        conditions: r.conditions.map((c, i) => ({ ...c, id: `c${i + 1}`, parameter: idOf.get(c.parameter)! })),
        actions: r.actions.map((a, i) => ({ ...a, id: `a${i + 1}` })),
        source: r.source,
        created_by: actor.id,
      })),
    );
    const ruleOf = new Map(pack.rules.map((r, i) => [r.key, rules[i]]));
    for (const v of pack.vignettes) {
      const fired = v.fired.map((key) => ruleOf.get(key)!);
      const primary = rankFindings(fired.map((r) => ruleSnapshot(r, source)))[0]?.id ?? null;
      await this.repo.insertVignette(m, {
        rule_set_id: setId,
        name: v.name,
        answers: Object.fromEntries(Object.entries(v.answers).map(([key, value]) => [idOf.get(key)!, value])) as Answers,
        expected_fired: fired.map((r) => r.id),
        expected_primary: primary,
        reference_date: null,
        created_by: actor.id,
      });
    }
    return setId;
  }

  /**
   * Static analysis of the saved active rules together with every other active published rule
   * set (what a PCP would get once this set is published); findings that concern this set only.
   */
  async analysis(id: string): Promise<AnalysisJson> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const set = await findRuleSet(m, id);
      const rules = (await activeRules(m, id)).map((r) => ruleSnapshot(r, set.source));
      const combination = await loadCombination(m, set, rules);
      return analysisJson(id, 'saved', rules, combinationFindings(combination), combination);
    });
  }

  /**
   * Analysis of unsaved designer content: each given rule replaces the saved rule of the same
   * id (is_active false leaves it out), rules without a known id are added, and the other
   * saved active rules are analysed with them.
   */
  async analyzeDraft(id: string, dto: AnalyzeDraftDto): Promise<AnalysisJson> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const set = await findRuleSet(m, id);
      const saved = (await activeRules(m, id)).map((r) => ruleSnapshot(r, set.source));
      const given = new Map(dto.rules.map((r, i) => [r.id ?? `draft-${i + 1}`, r]));
      const rules: EngineRule[] = [
        ...saved.filter((r) => !given.has(r.id)),
        ...[...given].filter(([, r]) => r.is_active !== false).map(([ruleId, r]) => draftRule(ruleId, id, r)),
      ];
      const combination = await loadCombination(m, set, rules);
      return analysisJson(id, 'draft', rules, combinationFindings(combination), combination);
    });
  }
}

function draftRule(id: string, ruleSetId: string, r: DraftRuleDto): EngineRule {
  return {
    id,
    rule_set_id: ruleSetId,
    name: r.name,
    description: r.description ?? '',
    priority: r.priority ?? 0,
    conditions: r.conditions as unknown as EngineRule['conditions'],
    actions: (r.actions ?? []) as unknown as EngineRule['actions'],
    ...(r.source ? { source: r.source } : {}),
  };
}

function analysisJson(id: string, source: 'saved' | 'draft', rules: EngineRule[], findings: Finding[], c: Combination): AnalysisJson {
  const summary = { error: 0, warning: 0, info: 0 };
  for (const f of findings) summary[f.severity] += 1;
  const combined = [...new Map([...c.ruleSets.values()].filter((s) => s.id !== id).map((s) => [s.id, s])).values()];
  return { rule_set_id: id, source, rule_count: rules.length, summary, findings, combined_with: combined };
}

function packJson(key: string | null): ContentPackJson | null {
  const pack = key ? CONTENT_PACKS[key] : undefined;
  if (!pack) return null;
  return {
    key: pack.key,
    rule_count: pack.rules.length,
    parameter_count: packParameterKeys(pack).length,
    vignette_count: pack.vignettes.length,
  };
}

export function toJson(r: RuleSetRow): RuleSetJson {
  return {
    ...r,
    content_pack: packJson(r.content_pack),
    version: Number(r.version),
    latest_version: r.latest_version === null || r.latest_version === undefined ? null : Number(r.latest_version),
    published_at: iso(r.published_at),
    rule_count: Number(r.rule_count ?? 0),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
