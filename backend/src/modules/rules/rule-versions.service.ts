import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { conflict, DomainError, notFound } from '../../common/errors';
import type { EngineParameter, EngineRule } from '@cds/engine';
import type { AuthUser } from '../../common/auth-user';
import { iso } from '../../common/api-helpers';
import { fromStoredOutcome } from './rule-content';
import type {
  DiffJson,
  DiffSide,
  PublishCheckJson,
  TestCaseFailureJson,
  VersionJson,
  VersionSummaryJson,
  WarningAcknowledgementJson,
} from '@cds/contracts';
import { combinationFindings, combinationHash, failingVignettes, loadCombination, uncoveredFindings } from './publish-gate';
import { draftContent, findRuleSet, parametersById } from './rule-store';
import { testCasesOfRules } from './rules.repository';
import {
  publishedRuleSetRows,
  publishedVersionIds,
  RuleVersionsRepository,
  type PublishedRuleSetRow,
  type VersionRow,
  type VersionSummaryRow,
} from './rule-versions.repository';
import { PublishImpactCheck } from './publish-impact-check';
import type { PublishDto } from './rule-sets.dto';
import type { RuleSetVersion } from './rule-set-version.entity';
import type { RuleSet } from './rule-set.entity';
import { runRule } from './rules.service';
import { loincCodesOf } from '../parameters';
import { contentHash, diffContent, type Content } from './snapshot';

/** What the assessments module evaluates: the latest published version of an active rule set. */
export interface PublishedRuleSet {
  rule_set_id: string;
  name: string;
  version: number;
  version_id: string;
  published_at: string;
  /** Each rule carries `version` and `rule_set_id`, for the recommendation's record. */
  rules: EngineRule[];
  /** The parameters as they were when published, inactive flag included. */
  parameters: EngineParameter[];
}

const bad = (field: string, message: string) => new DomainError('validation_failed', message, [{ field, message }]);

function versionNumber(name: string, raw: unknown): number | 'draft' | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'draft' && name === 'to') return 'draft';
  if (typeof raw === 'string' && /^[1-9]\d{0,8}$/.test(raw)) return Number(raw);
  throw bad(name, `${name} must be a version number${name === 'to' ? " or 'draft'" : ''}`);
}

@Injectable()
export class RuleVersionsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: RuleVersionsRepository,
    private readonly impactPreviews: PublishImpactCheck,
  ) {}

  /**
   * What publishing the draft now would meet, without publishing: analysis of the draft together
   * with every active published rule set, failing vignettes and test cases, and whether anything
   * changed since the latest version. The publish dialog shows this.
   */
  async check(id: string): Promise<PublishCheckJson> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const set = await findRuleSet(m, id);
      return (await this.gate(m, set)).check;
    });
  }

  /**
   * Snapshots the active rules and the parameters they use into the next immutable version.
   * Refused (409) when the set has no active rule, when nothing changed since the latest version,
   * when analysis of the draft with every active published set finds an error, when a vignette
   * or saved test case fails, or when there are warnings and no acknowledgement with a reason.
   * An acknowledgement is recorded in the version: who, when, why and which warnings.
   */
  async publish(actor: AuthUser, id: string, dto: PublishDto = {}): Promise<VersionJson> {
    const versionId = await this.db.transaction(async (m) => {
      const set = await findRuleSet(m, id, 'pessimistic_write');
      const { content, check, hash, latest, combination } = await this.gate(m, set);
      if (!content.rules.length) throw conflict('Add at least one active rule before publishing.');
      if (latest && !check.has_changes) throw conflict(`Nothing changed since version ${latest.number}`, { version: latest.number });
      if (check.errors.length) {
        throw conflict(
          `Publishing is blocked: analysis found ${plural(check.errors.length, 'error')} (${check.errors[0].message}${check.errors.length > 1 ? ' …' : ''})`,
          { findings: check.errors, ...check },
        );
      }
      if (check.failing_vignettes.length || check.failing_test_cases.length) {
        const names = [
          ...check.failing_vignettes.map((v) => `vignette "${v.test_case_name}"`),
          ...check.failing_test_cases.map((f) => `"${f.test_case_name}" of rule "${f.rule_name}"`),
        ];
        const vignettes = check.failing_vignettes.length;
        const cases = check.failing_test_cases.length;
        const what = [
          vignettes ? `${plural(vignettes, 'vignette')} fail${vignettes === 1 ? 's' : ''}` : '',
          cases ? `${plural(cases, 'saved test case')} fail${cases === 1 ? 's' : ''}` : '',
        ]
          .filter(Boolean)
          .join(' and ');
        throw conflict(`Publishing is blocked: ${what} (${names.slice(0, 5).join(', ')}).`, {
          failures: check.failing_test_cases,
          vignettes: check.failing_vignettes,
          ...check,
        });
      }
      const reason = dto.acknowledge_warnings?.reason?.trim();
      if (check.warnings.length && !reason) {
        throw conflict(
          `Publishing needs an acknowledgement: analysis found ${plural(check.warnings.length, 'warning')}. Review them and give a reason to publish anyway.`,
          { ...check },
        );
      }
      const acknowledgement: WarningAcknowledgementJson | null =
        check.warnings.length && reason
          ? {
              reason,
              by: actor.id,
              by_email: actor.email,
              at: new Date().toISOString(),
              findings: check.warnings.map((f) => ({ code: f.code, message: f.message })),
            }
          : null;
      const previewId = await this.impactPreviews.requireCurrent(
        m,
        id,
        { draftHash: hash, baseVersion: latest?.number ?? null, combinationHash: combinationHash(combination) },
        dto.impact_preview_id,
      );
      const number = (latest?.number ?? 0) + 1;
      const versionId = await this.repo.insert(m, {
        rule_set_id: id,
        number,
        name: set.name,
        content_hash: hash,
        rules: content.rules,
        parameters: content.parameters,
        source: set.source,
        warning_acknowledgement: acknowledgement,
        published_by: actor.id,
      });
      await this.impactPreviews.attach(m, previewId, versionId);
      return versionId;
    });
    return this.versionById(versionId);
  }

  async versions(ruleSetId: string): Promise<VersionSummaryJson[]> {
    await findRuleSet(this.db.manager, ruleSetId);
    return (await this.repo.summaries(ruleSetId)).map(toSummary);
  }

  async version(ruleSetId: string, number: number): Promise<VersionJson> {
    await findRuleSet(this.db.manager, ruleSetId);
    const row = await this.repo.findByNumber(ruleSetId, number);
    if (!row) throw notFound(`Version ${number}`);
    return toVersion(row);
  }

  /**
   * Rules added, removed and changed between two versions. Without `from`, the latest
   * published version; without `to` (or with 'draft'), the current unpublished rules.
   */
  async diff(ruleSetId: string, rawFrom?: unknown, rawTo?: unknown): Promise<DiffJson> {
    const from = versionNumber('from', rawFrom) as number | undefined;
    const to = versionNumber('to', rawTo) ?? 'draft';
    return this.db.transaction('REPEATABLE READ', async (m) => {
      await findRuleSet(m, ruleSetId);
      const fromVersion = from !== undefined ? await this.load(m, ruleSetId, from) : await this.repo.latest(m, ruleSetId);
      const toVersion = to === 'draft' ? null : await this.load(m, ruleSetId, to);
      const toContent: Content = toVersion ?? (await draftContent(m, ruleSetId));
      const diff = diffContent(fromVersion, toContent);
      const fromSide = fromVersion ? side(fromVersion) : null;
      const toSide = toVersion ? side(toVersion) : { number: null, draft: true, content_hash: contentHash(toContent), published_at: null };
      return { rule_set_id: ruleSetId, from: fromSide, to: toSide, has_changes: fromSide?.content_hash !== toSide.content_hash, ...diff };
    });
  }

  /** For the assessments module: the latest version of every rule set that is active and published. */
  async loadPublishedRuleSets(): Promise<PublishedRuleSet[]> {
    return (await publishedRuleSetRows(this.db.manager)).map(toPublished);
  }

  /** For the assessments module: the ids of those versions, in the same order (one cheap query). */
  loadPublishedVersionIds(): Promise<string[]> {
    return publishedVersionIds(this.db.manager);
  }

  /**
   * For the CDS hooks: those version ids and every parameter's current LOINC code (the parameters module's
   * to read). Read when a process refreshes its copy of what hook calls read, not on every call.
   */
  async loadPublishedVersionIdsAndLoincCodes(): Promise<{ version_ids: string[]; loinc_codes: Record<string, string> }> {
    const [version_ids, codes] = await Promise.all([publishedVersionIds(this.db.manager), loincCodesOf(this.db.manager)]);
    return { version_ids, loinc_codes: Object.fromEntries(codes) };
  }

  /** For the assessments module: one exact version (what a past assessment was decided with). */
  async loadVersion(versionId: string): Promise<PublishedRuleSet> {
    const row = await this.repo.published(versionId);
    if (!row) throw notFound('Rule set version');
    return toPublished(row);
  }

  private async gate(m: EntityManager, set: RuleSet) {
    const content = await draftContent(m, set.id);
    const hash = contentHash(content);
    const latest = await this.repo.latest(m, set.id);
    const combination = await loadCombination(m, set, content.rules);
    const findings = content.rules.length ? [...combinationFindings(combination), ...uncoveredFindings(combination, latest)] : [];
    const check: PublishCheckJson = {
      rule_set_id: set.id,
      rule_count: content.rules.length,
      has_changes: latest?.content_hash !== hash,
      latest_version: latest?.number ?? null,
      combined_rule_sets: [...new Map([...combination.ruleSets.values()].map((s) => [s.id, s])).values()],
      errors: findings.filter((f) => f.severity === 'error'),
      warnings: findings.filter((f) => f.severity === 'warning'),
      failing_vignettes: content.rules.length ? await failingVignettes(m, combination) : [],
      failing_test_cases: await this.failingCases(m, content),
    };
    return { content, check, hash, latest, combination };
  }

  /** Saved test cases of the active rules, run against the content about to be published. */
  private async failingCases(m: EntityManager, content: Content): Promise<TestCaseFailureJson[]> {
    const byId = new Map(content.rules.map((r) => [r.id, r]));
    const cases = await testCasesOfRules(m, [...byId.keys()]);
    if (!cases.length) return [];
    const answered = cases.flatMap((c) => Object.keys(c.answers));
    const known = new Set(content.parameters.map((p) => p.id));
    const extra = await parametersById(
      m,
      [...new Set(answered)].filter((id) => !known.has(id)),
    );
    const parameters = [...content.parameters, ...extra];
    const failures: TestCaseFailureJson[] = [];
    for (const c of cases) {
      const rule = byId.get(c.rule_id)!;
      const expected = fromStoredOutcome(c.expected_outcome);
      const actual = runRule(rule, c.answers, parameters, c.reference_date ?? new Date()).outcome;
      if (actual !== expected) {
        failures.push({
          rule_id: rule.id,
          rule_name: rule.name,
          test_case_id: c.id,
          test_case_name: c.name,
          expected_outcome: expected,
          actual_outcome: actual,
        });
      }
    }
    return failures;
  }

  private async load(m: EntityManager, ruleSetId: string, number: number): Promise<RuleSetVersion> {
    const v = await this.repo.load(m, ruleSetId, number);
    if (!v) throw notFound(`Version ${number}`);
    return v;
  }

  private async versionById(id: string): Promise<VersionJson> {
    return toVersion((await this.repo.findById(id))!);
  }
}

function side(v: RuleSetVersion): DiffSide {
  return { number: v.number, draft: false, content_hash: v.content_hash, published_at: iso(v.published_at) };
}

function toSummary(r: VersionSummaryRow): VersionSummaryJson {
  return { ...r, number: Number(r.number), rule_count: Number(r.rule_count), published_at: iso(r.published_at)! };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function toVersion(r: VersionRow): VersionJson {
  return { ...toSummary(r), rules: r.rules, parameters: r.parameters };
}

function toPublished(r: PublishedRuleSetRow): PublishedRuleSet {
  const version = Number(r.number);
  return {
    rule_set_id: r.rule_set_id,
    name: r.name,
    version,
    version_id: r.version_id,
    published_at: iso(r.published_at)!,
    // EngineRule.source: the rule's citation as published, else its rule set's (versions before sources existed have none).
    rules: r.rules.map((rule) => {
      const source = rule.source || r.source || null;
      return { ...rule, version, rule_set_id: r.rule_set_id, ...(source ? { source } : {}) };
    }),
    parameters: r.parameters,
  };
}
