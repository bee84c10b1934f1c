import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { conflict, DomainError, notFound } from '../../common/errors';
import type { EngineParameter, EngineRule } from '../../engine';
import type { AuthUser } from '../auth/auth-user';
import { iso } from '../parameters/api-helpers';
import { fromStoredOutcome, type Outcome } from './rule-content';
import { draftContent, findRuleSet, parametersById } from './rule-store';
import { RuleSetVersion } from './rule-set-version.entity';
import { RuleSet } from './rule-set.entity';
import { RuleTestCase } from './rule-test-case.entity';
import { runRule } from './rules.service';
import { contentHash, diffContent, type Content, type ContentDiff } from './snapshot';

export interface VersionSummaryJson {
  id: string;
  rule_set_id: string;
  number: number;
  name: string;
  content_hash: string;
  rule_count: number;
  published_by: string | null;
  published_by_email: string | null;
  published_at: string;
}

export interface VersionJson extends VersionSummaryJson {
  rules: EngineRule[];
  parameters: EngineParameter[];
}

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

export interface TestCaseFailure {
  rule_id: string;
  rule_name: string;
  test_case_id: string;
  test_case_name: string;
  expected_outcome: Outcome;
  actual_outcome: Outcome;
}

export interface DiffSide {
  number: number | null;
  draft: boolean;
  content_hash: string;
  published_at: string | null;
}

export interface DiffJson extends ContentDiff {
  rule_set_id: string;
  from: DiffSide | null;
  to: DiffSide;
  has_changes: boolean;
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
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Snapshots the active rules and the parameters they use into the next immutable version.
   * Refused (409) when the set has no active rule, when a saved test case fails (listing the
   * failures), or when nothing changed since the latest version.
   */
  async publish(actor: AuthUser, id: string): Promise<VersionJson> {
    const versionId = await this.db.transaction(async (m) => {
      const set = await findRuleSet(m, id, 'pessimistic_write');
      const content = await draftContent(m, id);
      if (!content.rules.length) throw conflict('Add at least one active rule before publishing.');
      const failures = await this.failingCases(m, content);
      if (failures.length) {
        const list = failures.slice(0, 5).map((f) => `"${f.test_case_name}" of rule "${f.rule_name}"`).join(', ');
        throw conflict(`Publishing is blocked: ${failures.length} saved test case${failures.length === 1 ? '' : 's'} fail${failures.length === 1 ? 's' : ''} (${list}).`, { failures });
      }
      const hash = contentHash(content);
      const latest = await m.findOne(RuleSetVersion, { where: { rule_set_id: id }, order: { number: 'DESC' } });
      if (latest?.content_hash === hash) throw conflict(`Nothing changed since version ${latest.number}`, { version: latest.number });
      const number = (latest?.number ?? 0) + 1;
      const saved = await m.save(RuleSetVersion, m.create(RuleSetVersion, {
        rule_set_id: id, number, name: set.name, content_hash: hash,
        rules: content.rules, parameters: content.parameters, published_by: actor.id,
      }));
      await m.update(RuleSet, { id }, { is_published: true, version: number });
      return saved.id;
    });
    return this.versionById(versionId);
  }

  async versions(ruleSetId: string): Promise<VersionSummaryJson[]> {
    await findRuleSet(this.db.manager, ruleSetId);
    const rows = await this.base().where('v.rule_set_id = :ruleSetId', { ruleSetId }).orderBy('v.number', 'DESC').getRawMany();
    return rows.map((r) => toSummary(r));
  }

  async version(ruleSetId: string, number: number): Promise<VersionJson> {
    await findRuleSet(this.db.manager, ruleSetId);
    const row = await this.base(true).where('v.rule_set_id = :ruleSetId AND v.number = :number', { ruleSetId, number }).getRawOne();
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
      const fromVersion = from !== undefined ? await this.load(m, ruleSetId, from)
        : await m.findOne(RuleSetVersion, { where: { rule_set_id: ruleSetId }, order: { number: 'DESC' } });
      const toVersion = to === 'draft' ? null : await this.load(m, ruleSetId, to);
      const toContent: Content = toVersion ?? await draftContent(m, ruleSetId);
      const diff = diffContent(fromVersion, toContent);
      const fromSide = fromVersion ? side(fromVersion) : null;
      const toSide = toVersion ? side(toVersion) : { number: null, draft: true, content_hash: contentHash(toContent), published_at: null };
      return { rule_set_id: ruleSetId, from: fromSide, to: toSide, has_changes: fromSide?.content_hash !== toSide.content_hash, ...diff };
    });
  }

  /** For the assessments module: the latest version of every rule set that is active and published. */
  async loadPublishedRuleSets(): Promise<PublishedRuleSet[]> {
    const rows = await this.db.query(
      `SELECT rs.id AS rule_set_id, rs.name, v.id AS version_id, v.number, v.published_at, v.rules, v.parameters
         FROM rule_sets rs
         JOIN rule_set_versions v ON v.rule_set_id = rs.id
          AND v.number = (SELECT max(x.number) FROM rule_set_versions x WHERE x.rule_set_id = rs.id)
        WHERE rs.is_active AND rs.is_published AND rs.deleted_at IS NULL
        ORDER BY rs.created_at, rs.id`,
    );
    return rows.map(toPublished);
  }

  /** For the assessments module: one exact version (what a past assessment was decided with). */
  async loadVersion(versionId: string): Promise<PublishedRuleSet> {
    const rows = await this.db.query(
      `SELECT v.rule_set_id, rs.name, v.id AS version_id, v.number, v.published_at, v.rules, v.parameters
         FROM rule_set_versions v JOIN rule_sets rs ON rs.id = v.rule_set_id WHERE v.id = $1`,
      [versionId],
    );
    if (!rows.length) throw notFound('Rule set version');
    return toPublished(rows[0]);
  }

  /** Saved test cases of the active rules, run against the content about to be published. */
  private async failingCases(m: EntityManager, content: Content): Promise<TestCaseFailure[]> {
    const byId = new Map(content.rules.map((r) => [r.id, r]));
    const cases = await m.find(RuleTestCase, { where: { rule_id: In([...byId.keys()]) }, order: { created_at: 'ASC', id: 'ASC' } });
    if (!cases.length) return [];
    const answered = cases.flatMap((c) => Object.keys(c.answers));
    const known = new Set(content.parameters.map((p) => p.id));
    const extra = await parametersById(m, [...new Set(answered)].filter((id) => !known.has(id)));
    const parameters = [...content.parameters, ...extra];
    const failures: TestCaseFailure[] = [];
    for (const c of cases) {
      const rule = byId.get(c.rule_id)!;
      const expected = fromStoredOutcome(c.expected_outcome);
      const actual = runRule(rule, c.answers, parameters, c.reference_date ?? new Date()).outcome;
      if (actual !== expected) {
        failures.push({ rule_id: rule.id, rule_name: rule.name, test_case_id: c.id, test_case_name: c.name, expected_outcome: expected, actual_outcome: actual });
      }
    }
    return failures;
  }

  private async load(m: EntityManager, ruleSetId: string, number: number): Promise<RuleSetVersion> {
    const v = await m.findOne(RuleSetVersion, { where: { rule_set_id: ruleSetId, number } });
    if (!v) throw notFound(`Version ${number}`);
    return v;
  }

  private async versionById(id: string): Promise<VersionJson> {
    return toVersion((await this.base(true).where('v.id = :id', { id }).getRawOne())!);
  }

  private base(withContent = false) {
    const qb = this.db.createQueryBuilder()
      .from('rule_set_versions', 'v')
      .leftJoin('users', 'u', 'u.id = v.published_by')
      .select(['v.id AS id', 'v.rule_set_id AS rule_set_id', 'v.number AS number', 'v.name AS name', 'v.content_hash AS content_hash',
        'v.published_by AS published_by', 'u.email AS published_by_email', 'v.published_at AS published_at'])
      .addSelect('jsonb_array_length(v.rules)', 'rule_count');
    if (withContent) qb.addSelect('v.rules', 'rules').addSelect('v.parameters', 'parameters');
    return qb;
  }
}

function side(v: RuleSetVersion): DiffSide {
  return { number: v.number, draft: false, content_hash: v.content_hash, published_at: iso(v.published_at) };
}

function toSummary(r: Record<string, unknown>): VersionSummaryJson {
  return {
    id: r.id as string,
    rule_set_id: r.rule_set_id as string,
    number: Number(r.number),
    name: r.name as string,
    content_hash: r.content_hash as string,
    rule_count: Number(r.rule_count),
    published_by: (r.published_by as string) ?? null,
    published_by_email: (r.published_by_email as string) ?? null,
    published_at: iso(r.published_at as Date)!,
  };
}

function toVersion(r: Record<string, unknown>): VersionJson {
  return { ...toSummary(r), rules: r.rules as EngineRule[], parameters: r.parameters as EngineParameter[] };
}

function toPublished(r: Record<string, unknown>): PublishedRuleSet {
  const version = Number(r.number);
  return {
    rule_set_id: r.rule_set_id as string,
    name: r.name as string,
    version,
    version_id: r.version_id as string,
    published_at: iso(r.published_at as Date)!,
    rules: (r.rules as EngineRule[]).map((rule) => ({ ...rule, version, rule_set_id: r.rule_set_id as string })),
    parameters: r.parameters as EngineParameter[],
  };
}

