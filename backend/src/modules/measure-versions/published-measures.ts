import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors';
import { localMeasure, SHIPPED_MEASURES, type ShippedMeasure } from '../measures/content';
import { MeasureVersionsRepository } from './measure-versions.repository';

/**
 * The one source of the measures as published (issue 21): the shipped definition (version 1), or the local
 * version an administrator published. Which version is published is read per call (one small read), so a
 * publish in any process is what the next Panel, $evaluate-measure, measure run or gap card of every process
 * reads; a published version never changes, so each is built once per process.
 */
@Injectable()
export class PublishedMeasures {
  private readonly built = new Map<string, Promise<ShippedMeasure>>();

  constructor(private readonly versions: MeasureVersionsRepository) {}

  /** Every measure as published now, in the shipped order. */
  async all(): Promise<ShippedMeasure[]> {
    const heads = new Map((await this.versions.publishedHeads()).map((h) => [h.measure_id, h.version]));
    return Promise.all(SHIPPED_MEASURES.map((m) => (heads.has(m.id) ? this.local(m, heads.get(m.id)!) : m)));
  }

  /** One measure as published now; 404 for an id the product does not ship. */
  async one(id: string): Promise<ShippedMeasure> {
    return (await this.some([id]))[0];
  }

  /** These measures as published now, in the order asked, from one read; 404 for an id the product does not ship. */
  async some(ids: readonly string[]): Promise<ShippedMeasure[]> {
    const all = await this.all();
    return ids.map((id) => {
      const m = all.find((x) => x.id === id);
      if (!m) throw notFound('Measure');
      return m;
    });
  }

  /** The CMS definition as shipped (version 1); 404 for an id the product does not ship. */
  shipped(id: string): ShippedMeasure {
    const m = SHIPPED_MEASURES.find((x) => x.id === id);
    if (!m) throw notFound('Measure');
    return m;
  }

  private local(shipped: ShippedMeasure, version: number): Promise<ShippedMeasure> {
    const key = `${shipped.id}@${version}`;
    let m = this.built.get(key);
    if (!m) {
      m = this.versions.published(shipped.id, version).then((row) => {
        if (!row?.published_at || row.note === null) throw new Error(`${key} is published without its note or date`);
        return localMeasure(shipped, { version, note: row.note, published_at: row.published_at, rules: row.rules });
      });
      m.catch(() => this.built.delete(key));
      this.built.set(key, m);
    }
    return m;
  }
}
