import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { VersionJson, VersionSummaryJson } from '@cds/contracts';
import type { Stored } from '../../common/stored';
import type { EngineParameter, EngineRule } from '@cds/engine';
import { DataSource, EntityManager } from 'typeorm';
import { userLabels } from '../users';
import { RuleSetVersion } from './rule-set-version.entity';
import { RuleSet } from './rule-set.entity';

/** A version as listed: who published it (with email) and how many rules it holds, without its content. */
export type VersionSummaryRow = Stored<VersionSummaryJson, 'published_at'>;

export type VersionRow = Stored<VersionJson, 'published_at'>;

/** One version of a rule set with its set's name, as assessments load it. */
export interface PublishedRuleSetRow {
  rule_set_id: string;
  name: string;
  version_id: string;
  number: number;
  published_at: Date;
  rules: EngineRule[];
  parameters: EngineParameter[];
  source: string | null;
}

export type NewVersion = Pick<
  RuleSetVersion,
  'rule_set_id' | 'number' | 'name' | 'content_hash' | 'rules' | 'parameters' | 'source' | 'warning_acknowledgement' | 'published_by'
>;

/** The immutable published versions of rule sets: every query on them. */
@Injectable()
export class RuleVersionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base(withContent: boolean) {
    const qb = this.db
      .createQueryBuilder()
      .from(RuleSetVersion, 'v')
      .select([
        'v.id AS id',
        'v.rule_set_id AS rule_set_id',
        'v.number AS number',
        'v.name AS name',
        'v.content_hash AS content_hash',
        'v.published_by AS published_by',
        'v.published_at AS published_at',
        'v.source AS source',
        'v.warning_acknowledgement AS warning_acknowledgement',
      ])
      .addSelect('jsonb_array_length(v.rules)::int', 'rule_count');
    if (withContent) qb.addSelect('v.rules', 'rules').addSelect('v.parameters', 'parameters');
    return qb;
  }

  /** The publishers' e-mails, named for all the versions read at once. */
  private async withPublishers<T extends { published_by: string | null }>(
    rows: T[],
  ): Promise<(T & { published_by_email: string | null })[]> {
    const publishers = await userLabels(
      this.db.manager,
      rows.map((r) => r.published_by),
    );
    return rows.map((r) => ({ ...r, published_by_email: (r.published_by && publishers.get(r.published_by)?.email) || null }));
  }

  /** A rule set's versions, newest first. */
  async summaries(ruleSetId: string): Promise<VersionSummaryRow[]> {
    const qb = this.base(false).where('v.rule_set_id = :ruleSetId', { ruleSetId }).orderBy('v.number', 'DESC');
    return this.withPublishers(await qb.getRawMany<Omit<VersionSummaryRow, 'published_by_email'>>());
  }

  async findByNumber(ruleSetId: string, number: number): Promise<VersionRow | null> {
    const qb = this.base(true).where('v.rule_set_id = :ruleSetId AND v.number = :number', { ruleSetId, number });
    const row = await qb.getRawOne<Omit<VersionRow, 'published_by_email'>>();
    return row ? (await this.withPublishers([row]))[0] : null;
  }

  async findById(id: string): Promise<VersionRow | null> {
    const row = await this.base(true).where('v.id = :id', { id }).getRawOne<Omit<VersionRow, 'published_by_email'>>();
    return row ? (await this.withPublishers([row]))[0] : null;
  }

  latest(m: EntityManager, ruleSetId: string): Promise<RuleSetVersion | null> {
    return latestVersion(m, ruleSetId);
  }

  load(m: EntityManager, ruleSetId: string, number: number): Promise<RuleSetVersion | null> {
    return m.findOne(RuleSetVersion, { where: { rule_set_id: ruleSetId, number } });
  }

  /** Stores the next version and marks the set published at that number. */
  async insert(m: EntityManager, version: NewVersion): Promise<string> {
    const saved = await m.save(RuleSetVersion, m.create(RuleSetVersion, version));
    await m.update(RuleSet, { id: version.rule_set_id }, { is_published: true, version: version.number });
    return saved.id;
  }

  /** One exact version with its rule set's name. */
  async published(versionId: string): Promise<PublishedRuleSetRow | null> {
    const rows: PublishedRuleSetRow[] = await this.db.query(
      `SELECT v.rule_set_id, rs.name, v.id AS version_id, v.number, v.published_at, v.rules, v.parameters, v.source
         FROM rule_set_versions v JOIN rule_sets rs ON rs.id = v.rule_set_id WHERE v.id = $1`,
      [versionId],
    );
    return rows[0] ?? null;
  }
}

/** The id of a rule set's version by its number, or null: how another module finds what it kept with a version. */
export async function versionIdOf(m: EntityManager, ruleSetId: string, number: number): Promise<string | null> {
  return (await m.findOne(RuleSetVersion, { select: { id: true }, where: { rule_set_id: ruleSetId, number } }))?.id ?? null;
}

/** A version's number by its id, or null. */
export async function versionNumberOf(m: EntityManager, versionId: string): Promise<number | null> {
  return (await m.findOne(RuleSetVersion, { select: { number: true }, where: { id: versionId } }))?.number ?? null;
}

/** A rule set's latest published version (null: never published). */
export function latestVersion(m: EntityManager, ruleSetId: string): Promise<RuleSetVersion | null> {
  return m.findOne(RuleSetVersion, { where: { rule_set_id: ruleSetId }, order: { number: 'DESC' } });
}

/** The latest version of every active, published, undeleted rule set (optionally but one): what a PCP gets. */
export function publishedRuleSetRows(m: EntityManager, exceptRuleSetId?: string): Promise<PublishedRuleSetRow[]> {
  return m.query(
    publishedQuery('rs.id AS rule_set_id, rs.name, v.id AS version_id, v.number, v.published_at, v.rules, v.parameters, v.source'),
    [exceptRuleSetId ?? null],
  );
}

/** The same versions' ids only, in the same order: a cheap query that says whether a cached copy is current. */
export async function publishedVersionIds(m: EntityManager): Promise<string[]> {
  const rows: { version_id: string }[] = await m.query(publishedQuery('v.id AS version_id'), [null]);
  return rows.map((r) => r.version_id);
}

function publishedQuery(columns: string): string {
  return `SELECT ${columns}
       FROM rule_sets rs
       JOIN rule_set_versions v ON v.rule_set_id = rs.id
        AND v.number = (SELECT max(x.number) FROM rule_set_versions x WHERE x.rule_set_id = rs.id)
      WHERE rs.is_active AND rs.is_published AND rs.deleted_at IS NULL AND rs.id IS DISTINCT FROM $1
      ORDER BY rs.created_at, rs.id`;
}
