import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { MeasureDraftRuleJson } from '@cds/contracts';
import { isUniqueViolation } from '../../common/api-helpers';
import { MeasureVersion } from './measure-version.entity';

/** A stored version with the e-mails of who created, last saved and published it (null when the user is gone). */
export interface MeasureVersionRow extends MeasureVersion {
  created_email: string | null;
  updated_email: string | null;
  published_email: string | null;
}

/** A published version as the measures read it. */
export type PublishedRow = Pick<MeasureVersion, 'measure_id' | 'version' | 'note' | 'published_at' | 'rules'>;

/** `measure_versions`: a measure's one draft, its published version and the retired ones (the only SQL on them). */
@Injectable()
export class MeasureVersionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Which version of each measure is published now: one small read, made per request so every process agrees. */
  async publishedHeads(): Promise<{ measure_id: string; version: number }[]> {
    return this.db.getRepository(MeasureVersion).find({ select: { measure_id: true, version: true }, where: { status: 'published' } });
  }

  async published(measureId: string, version: number): Promise<PublishedRow | null> {
    return this.db.getRepository(MeasureVersion).findOne({
      select: { measure_id: true, version: true, note: true, published_at: true, rules: true },
      where: { measure_id: measureId, version },
    });
  }

  /** Every stored version of a measure, newest first. */
  async list(measureId: string): Promise<MeasureVersionRow[]> {
    return this.withEmails(this.db.manager)
      .where('v.measure_id = :measureId', { measureId })
      .orderBy('v.version', 'DESC')
      .getRawAndEntities()
      .then(rowsOf);
  }

  async find(measureId: string, version: number): Promise<MeasureVersionRow | null> {
    const rows = await this.withEmails(this.db.manager)
      .where('v.measure_id = :measureId AND v.version = :version', { measureId, version })
      .getRawAndEntities()
      .then(rowsOf);
    return rows[0] ?? null;
  }

  async draft(measureId: string): Promise<MeasureVersionRow | null> {
    const rows = await this.withEmails(this.db.manager)
      .where('v.measure_id = :measureId', { measureId })
      .andWhere(`v.status = 'draft'`)
      .getRawAndEntities()
      .then(rowsOf);
    return rows[0] ?? null;
  }

  /** A new draft, numbered after every version the measure has had; null when another draft exists (or was made meanwhile). */
  async createDraft(measureId: string, rules: readonly MeasureDraftRuleJson[], actor: string): Promise<MeasureVersion | null> {
    return this.db
      .transaction(async (m) => {
        // Asked first so the usual refusal is no failed statement; the unique index still decides a race.
        if (await m.getRepository(MeasureVersion).exists({ where: { measure_id: measureId, status: 'draft' } })) return null;
        const { max } = (await m
          .getRepository(MeasureVersion)
          .createQueryBuilder('v')
          .select('COALESCE(MAX(v.version), 1)', 'max')
          .where('v.measure_id = :measureId', { measureId })
          .getRawOne<{ max: number }>())!;
        return m.getRepository(MeasureVersion).save({
          measure_id: measureId,
          version: Number(max) + 1,
          status: 'draft',
          revision: 1,
          rules: [...rules],
          created_by: actor,
          updated_by: actor,
        });
      })
      .catch((e: unknown) => {
        if (isUniqueViolation(e)) return null;
        throw e;
      });
  }

  /** The draft's rules replaced when it still is at `revision`; null when it moved on, was discarded or published. */
  async updateDraft(measureId: string, revision: number, rules: readonly MeasureDraftRuleJson[], actor: string): Promise<boolean> {
    const r = await this.db.getRepository(MeasureVersion).update({ measure_id: measureId, status: 'draft', revision }, {
      rules: [...rules],
      revision: () => '"revision" + 1',
      updated_by: actor,
      updated_at: () => 'now()',
    } as QueryDeepPartialEntity<MeasureVersion>);
    return !!r.affected;
  }

  /** Deletes the draft when it still is at `revision`. */
  async discardDraft(measureId: string, revision: number): Promise<boolean> {
    const r = await this.db.getRepository(MeasureVersion).delete({ measure_id: measureId, status: 'draft', revision });
    return !!r.affected;
  }

  /**
   * The draft at `revision` becomes the published version (its rules as read, every one named, and the note);
   * the version published until now is retired. In one transaction: false (and nothing changed) when the draft moved on.
   */
  async publish(
    measureId: string,
    revision: number,
    rules: readonly MeasureDraftRuleJson[],
    note: string,
    actor: string,
  ): Promise<boolean> {
    return this.db.transaction(async (m: EntityManager) => {
      const versions = m.getRepository(MeasureVersion);
      const draft = await versions.findOne({
        select: { id: true },
        where: { measure_id: measureId, status: 'draft', revision },
        lock: { mode: 'pessimistic_write' },
      });
      if (!draft) return false;
      await versions.update({ measure_id: measureId, status: 'published' }, { status: 'retired' });
      await versions.update({ id: draft.id }, {
        status: 'published',
        rules: [...rules],
        note,
        published_by: actor,
        published_at: () => 'now()',
        updated_by: actor,
        updated_at: () => 'now()',
      } as QueryDeepPartialEntity<MeasureVersion>);
      return true;
    });
  }

  private withEmails(m: EntityManager) {
    return m
      .getRepository(MeasureVersion)
      .createQueryBuilder('v')
      .leftJoin('v.creator', 'c')
      .leftJoin('v.updater', 'u')
      .leftJoin('v.publisher', 'p')
      .addSelect('c.email', 'created_email')
      .addSelect('u.email', 'updated_email')
      .addSelect('p.email', 'published_email');
  }
}

function rowsOf({ entities, raw }: { entities: MeasureVersion[]; raw: Record<string, unknown>[] }): MeasureVersionRow[] {
  return entities.map((e, i) => ({
    ...e,
    created_email: (raw[i]?.created_email as string | null) ?? null,
    updated_email: (raw[i]?.updated_email as string | null) ?? null,
    published_email: (raw[i]?.published_email as string | null) ?? null,
  }));
}
