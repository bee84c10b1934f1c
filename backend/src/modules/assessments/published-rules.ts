import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors';
import type { QuestionJson } from '@cds/contracts';
import {
  clinicalQuestionOrder,
  defaultQuestionText,
  prepareRuleSet,
  questionFor,
  type EngineParameter,
  type EngineRule,
  type PreparedRuleSet,
} from '@cds/engine';
import { ParametersService } from '../parameters';
import { RuleVersionsService, type PublishedRuleSet } from '../rules';
import type { VersionRef } from './assessment.entity';
import { questionJson } from './answer-record';

/** The rules an assessment or chat session is decided with: published versions, merged. */
export interface Knowledge {
  versions: VersionRef[];
  rules: EngineRule[];
  parameters: EngineParameter[];
  /** `rules` and `parameters` read and ranked once: pass it to every engine step. */
  prepared: PreparedRuleSet;
  parameterById: ReadonlyMap<string, EngineParameter>;
  versionOfRuleSet: ReadonlyMap<string, VersionRef>;
  ruleById: ReadonlyMap<string, EngineRule>;
  /** The rule set's citation, shown on a finding whose rule has none. */
  sourceOfRuleSet: ReadonlyMap<string, string | null>;
}

/** The publish stream records a citation on rule sets; versions published before it have none. */
function sourceOfSet(set: PublishedRuleSet): string | null {
  const source = (set as { source?: unknown }).source;
  return typeof source === 'string' && source.trim() !== '' ? source : null;
}

const MAX_CACHED = 500;

function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as K);
  cache.set(key, value);
  return value;
}

function refOf(set: PublishedRuleSet): VersionRef {
  return { version_id: set.version_id, rule_set_id: set.rule_set_id, name: set.name, version: set.version };
}

/**
 * Loads published rule-set versions through the rules module. Versions are immutable (the
 * database refuses updates), so each is cached by id for good: every API process may keep its
 * own copy, and an assessment in progress never re-reads what it was started with.
 */
@Injectable()
export class PublishedRules {
  private readonly versions = new Map<string, PublishedRuleSet>();
  private readonly merged = new Map<string, Knowledge>();
  private loading: { ids: string; load: Promise<PublishedRuleSet[]> } | null = null;

  constructor(
    private readonly ruleVersions: RuleVersionsService,
    private readonly parameters: ParametersService,
  ) {}

  /**
   * The latest published version of every active, published rule set: what a new session uses.
   * One cheap query names those versions; the merged rules are cached by their ids, so a publish,
   * an activation or a deactivation in any API process changes the key and is seen at once.
   */
  async current(): Promise<Knowledge> {
    return this.currentOf(await this.ruleVersions.loadPublishedVersionIds());
  }

  /**
   * The same, with every parameter's LOINC code as stored now (a CDS hook call's needs), read in the
   * same query as the version ids: an administrator's edit of a code applies at the next call, in
   * every process.
   */
  async currentWithLoincCodes(): Promise<{ knowledge: Knowledge; loincCodes: ReadonlyMap<string, string> }> {
    const { version_ids, loinc_codes } = await this.ruleVersions.loadPublishedVersionIdsAndLoincCodes();
    return { knowledge: await this.currentOf(version_ids), loincCodes: new Map(Object.entries(loinc_codes)) };
  }

  /** The ids of those versions, as stored now (KnowledgeFacts keeps them between publishes). */
  publishedVersionIds(): Promise<string[]> {
    return this.ruleVersions.loadPublishedVersionIds();
  }

  /** The merged rules of these published versions (the ids `publishedVersionIds` gave). */
  async currentOf(versionIds: readonly string[]): Promise<Knowledge> {
    const ids = versionIds.join(',');
    const hit = this.merged.get(ids);
    if (hit) return hit;
    // Requests that miss together (a publish, a cold start under load) share one read, if they read the same ids
    // (then no publish committed before the read they share started).
    if (this.loading?.ids !== ids) {
      const load = this.ruleVersions.loadPublishedRuleSets().finally(() => {
        if (this.loading?.load === load) this.loading = null;
      });
      this.loading = { ids, load };
    }
    const sets = await this.loading.load;
    for (const set of sets) if (!this.versions.has(set.version_id)) remember(this.versions, set.version_id, set);
    return this.merge(sets);
  }

  /** Exactly the versions a session started with. */
  async of(refs: readonly VersionRef[]): Promise<Knowledge> {
    const hit = this.merged.get(key(refs));
    if (hit) return hit;
    const sets: PublishedRuleSet[] = [];
    for (const ref of refs) {
      sets.push(
        this.versions.get(ref.version_id) ?? remember(this.versions, ref.version_id, await this.ruleVersions.loadVersion(ref.version_id)),
      );
    }
    return this.merge(sets);
  }

  /** The chat's question wording as stored now (override, else polished, else the default); never waits on the queue. */
  async questionText(parameter: EngineParameter): Promise<string> {
    try {
      return (await this.parameters.get(parameter.id)).question_text;
    } catch (e) {
      if (e instanceof DomainError && e.code === 'not_found') return defaultQuestionText(parameter);
      throw e;
    }
  }

  /** Every question of these versions in the clinical form's order, worded as stored now (the FHIR Questionnaire's items). */
  questions(k: Knowledge): Promise<QuestionJson[]> {
    return Promise.all(
      clinicalQuestionOrder(k.rules, k.parameters).map(async (p) =>
        questionJson(questionFor(p, k.rules, k.parameters), await this.questionText(p)),
      ),
    );
  }

  /** The LOINC codes stored now for these parameters (the clinical checks that span two answers find them by code). */
  loincCodes(ids: readonly string[]): Promise<Map<string, string>> {
    return this.parameters.loincCodes(ids);
  }

  /** Every active parameter (spec: the chat asks all of them when no rule uses any). */
  activeParameters(): Promise<EngineParameter[]> {
    return this.parameters.activeEngineParameters();
  }

  private merge(sets: readonly PublishedRuleSet[]): Knowledge {
    const versions = sets.map(refOf);
    const hit = this.merged.get(key(versions));
    if (hit) return hit;
    // A parameter snapshotted by several versions: the most recently published snapshot wins.
    const byId = new Map<string, EngineParameter>();
    for (const set of [...sets].sort((a, b) => a.published_at.localeCompare(b.published_at))) {
      for (const p of set.parameters) byId.set(p.id, p);
    }
    const rules = sets.flatMap((s) => s.rules);
    // The spec's loaded order (display name); the chat breaks ties in usage with it.
    const parameters = [...byId.values()].sort(
      (a, b) => a.display_name.toLowerCase().localeCompare(b.display_name.toLowerCase()) || (a.id < b.id ? -1 : 1),
    );
    return remember(this.merged, key(versions), {
      versions,
      rules,
      ruleById: new Map(rules.map((r) => [r.id, r])),
      sourceOfRuleSet: new Map(sets.map((s) => [s.rule_set_id, sourceOfSet(s)])),
      parameters,
      prepared: prepareRuleSet(rules, parameters),
      parameterById: byId,
      versionOfRuleSet: new Map(versions.map((v) => [v.rule_set_id, v])),
    });
  }
}

function key(refs: readonly { version_id: string }[]): string {
  return refs.map((r) => r.version_id).join(',');
}
