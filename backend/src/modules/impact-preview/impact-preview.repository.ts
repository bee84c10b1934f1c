import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ImpactPreviewJson } from '@cds/contracts';
import type { Answers } from '@cds/engine';
import { DataSource, EntityManager } from 'typeorm';
import { iso, pgCode } from '../../common/api-helpers';
import { notFound } from '../../common/errors';
import { ImpactPreview } from './impact-preview.entity';

export interface RecordedAnswers {
  answers: Answers;
  created_at: Date;
}

/** Every query of the impact preview: the populations it reads and the previews it keeps. */
@Injectable()
export class ImpactPreviewRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction('REPEATABLE READ', work);
  }

  /** The answers of every recorded assessment (the patients already seen), oldest first. */
  recordedAnswers(m: EntityManager): Promise<RecordedAnswers[]> {
    return m.query(`SELECT answers, created_at FROM assessments WHERE answers <> '{}'::jsonb ORDER BY created_at, id`);
  }

  /** Stores a computed preview; a rule set deleted while it was being computed is a 404, not a 500. */
  async save(preview: Omit<ImpactPreview, 'id' | 'created_at' | 'version_id'>): Promise<string> {
    try {
      const m = this.db.manager;
      return (await m.save(ImpactPreview, m.create(ImpactPreview, { ...preview, version_id: null }))).id;
    } catch (e) {
      if (pgCode(e) === '23503') throw notFound('Rule set');
      throw e;
    }
  }

  /**
   * Previews published with a version are kept for good; the others only serve an open publish
   * dialog, so those older than `maxAgeHours` go, and of each rule set's the newest `keep` stay.
   * Runs in its own short transaction: a preview a publish has just locked is waited for, and
   * then kept, since it now has a version.
   */
  async prune(ruleSetId: string, maxAgeHours: number, keep: number): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.query(`DELETE FROM rule_set_impact_previews WHERE version_id IS NULL AND created_at < now() - make_interval(hours => $1)`, [
        maxAgeHours,
      ]);
      await m.query(
        `DELETE FROM rule_set_impact_previews
          WHERE version_id IS NULL AND rule_set_id = $1
            AND id NOT IN (SELECT id FROM rule_set_impact_previews WHERE version_id IS NULL AND rule_set_id = $1
                            ORDER BY created_at DESC, id DESC LIMIT $2)`,
        [ruleSetId, keep],
      );
    });
  }

  async find(ruleSetId: string, id: string): Promise<ImpactPreviewJson | null> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT p.*, u.email AS created_by_email, v.number AS version_number
         FROM rule_set_impact_previews p
         LEFT JOIN users u ON u.id = p.created_by
         LEFT JOIN rule_set_versions v ON v.id = p.version_id
        WHERE p.rule_set_id = $1 AND p.id = $2`,
      [ruleSetId, id],
    );
    return rows.length ? toJson(rows[0]) : null;
  }

  /** The preview a version was published with (null for versions published before previews existed). */
  async findByVersion(ruleSetId: string, number: number): Promise<ImpactPreviewJson | null> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT p.id FROM rule_set_impact_previews p JOIN rule_set_versions v ON v.id = p.version_id
        WHERE v.rule_set_id = $1 AND v.number = $2`,
      [ruleSetId, number],
    );
    return rows.length ? this.find(ruleSetId, rows[0].id) : null;
  }

  /** Locks the preview row for the publish transaction, so two publishes cannot both use it. */
  forPublish(m: EntityManager, ruleSetId: string, id: string): Promise<ImpactPreview | null> {
    return m.findOne(ImpactPreview, { where: { id, rule_set_id: ruleSetId }, lock: { mode: 'pessimistic_write' } });
  }

  async attach(m: EntityManager, id: string, versionId: string): Promise<void> {
    await m.update(ImpactPreview, { id }, { version_id: versionId });
  }
}

function toJson(r: Record<string, unknown>): ImpactPreviewJson {
  return {
    id: r.id as string,
    rule_set_id: r.rule_set_id as string,
    draft_hash: r.draft_hash as string,
    base_version: r.base_version === null ? null : Number(r.base_version),
    seed: Number(r.seed),
    changes: (r.changes as ImpactPreviewJson['changes'] | undefined) ?? [],
    groups: r.groups as ImpactPreviewJson['groups'],
    version_id: (r.version_id as string | null) ?? null,
    version_number: r.version_number === null || r.version_number === undefined ? null : Number(r.version_number),
    created_by: (r.created_by as string | null) ?? null,
    created_by_email: (r.created_by_email as string | null) ?? null,
    created_at: iso(r.created_at as Date)!,
    elapsed_ms: Number(r.elapsed_ms),
  };
}
