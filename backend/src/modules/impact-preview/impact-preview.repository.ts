import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ImpactPreviewJson } from '@cds/contracts';
import type { Answers } from '@cds/engine';
import { DataSource, EntityManager } from 'typeorm';
import { iso, pgCode } from '../../common/api-helpers';
import { notFound } from '../../common/errors';
import { recordedAnswers } from '../assessments';
import { versionIdOf, versionNumberOf } from '../rules';
import { userLabels } from '../users';
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
    return recordedAnswers(m);
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
      await m
        .createQueryBuilder()
        .delete()
        .from(ImpactPreview)
        .where('version_id IS NULL AND created_at < now() - make_interval(hours => :maxAgeHours)', { maxAgeHours })
        .execute();
      const kept = m
        .createQueryBuilder()
        .select('k.id')
        .from(ImpactPreview, 'k')
        .where('k.version_id IS NULL AND k.rule_set_id = :ruleSetId')
        .orderBy('k.created_at', 'DESC')
        .addOrderBy('k.id', 'DESC')
        .limit(keep)
        .getQuery();
      await m
        .createQueryBuilder()
        .delete()
        .from(ImpactPreview)
        .where(`version_id IS NULL AND rule_set_id = :ruleSetId AND id NOT IN (${kept})`, { ruleSetId })
        .execute();
    });
  }

  /** The preview, with its author's e-mail and the number of the version it was published with. */
  async find(ruleSetId: string, id: string): Promise<ImpactPreviewJson | null> {
    const m = this.db.manager;
    const preview = await m.findOne(ImpactPreview, { where: { rule_set_id: ruleSetId, id } });
    if (!preview) return null;
    const [authors, versionNumber] = await Promise.all([
      userLabels(m, [preview.created_by]),
      preview.version_id ? versionNumberOf(m, preview.version_id) : null,
    ]);
    return toJson(preview, (preview.created_by && authors.get(preview.created_by)?.email) || null, versionNumber);
  }

  /** The preview a version was published with (null for versions published before previews existed). */
  async findByVersion(ruleSetId: string, number: number): Promise<ImpactPreviewJson | null> {
    const versionId = await versionIdOf(this.db.manager, ruleSetId, number);
    const preview = versionId
      ? await this.db.manager.findOne(ImpactPreview, { select: { id: true }, where: { version_id: versionId } })
      : null;
    return preview ? this.find(ruleSetId, preview.id) : null;
  }

  /** Locks the preview row for the publish transaction, so two publishes cannot both use it. */
  forPublish(m: EntityManager, ruleSetId: string, id: string): Promise<ImpactPreview | null> {
    return m.findOne(ImpactPreview, { where: { id, rule_set_id: ruleSetId }, lock: { mode: 'pessimistic_write' } });
  }

  async attach(m: EntityManager, id: string, versionId: string): Promise<void> {
    await m.update(ImpactPreview, { id }, { version_id: versionId });
  }
}

function toJson(p: ImpactPreview, createdByEmail: string | null, versionNumber: number | null): ImpactPreviewJson {
  return {
    id: p.id,
    rule_set_id: p.rule_set_id,
    draft_hash: p.draft_hash,
    base_version: p.base_version,
    seed: p.seed,
    changes: p.changes ?? [],
    groups: p.groups,
    version_id: p.version_id,
    version_number: versionNumber,
    created_by: p.created_by,
    created_by_email: createdByEmail,
    created_at: iso(p.created_at)!,
    elapsed_ms: p.elapsed_ms,
  };
}
