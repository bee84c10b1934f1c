import { Injectable } from '@nestjs/common';
import type { MeasureDesignJson, MeasureDesignSummaryJson } from '@cds/contracts';
import { codesOf, RecordsRepository, shippedValueSets } from '../../records';
import { ConformanceService } from '../conformance.service';
import { valueSetsOf } from '../measure-content';
import { MeasuresService } from '../measures.service';
import { SHIPPED_MEASURES } from '../shipped-measures';
import { MeasureVersionsService } from './measure-versions.service';
import { designSummary, measureDesign, type Codes } from './measure-design';

/**
 * The measures as the designer shows them (issue 21): each one's published version (the CMS definition as
 * shipped, or a local version) with populations as rule groups, criteria, version against the shipped
 * definition and value sets, the designer's analysis, the official cases as vignettes, and its draft.
 */
@Injectable()
export class MeasureDesignService {
  private shipped: { codes: Codes; titles: Map<string, string> } | null = null;

  constructor(
    private readonly measures: MeasuresService,
    private readonly records: RecordsRepository,
    private readonly conformance: ConformanceService,
    private readonly versions: MeasureVersionsService,
  ) {}

  async list(): Promise<MeasureDesignSummaryJson[]> {
    const designs = await this.designs(SHIPPED_MEASURES.map((m) => m.id));
    return designs.map(designSummary);
  }

  async get(id: string): Promise<MeasureDesignJson> {
    return (await this.designs([id]))[0];
  }

  private async designs(ids: readonly string[]): Promise<MeasureDesignJson[]> {
    const measures = await this.measures.measuresOf(ids);
    const versions = await Promise.all(ids.map((id) => this.versions.current(id)));
    // Stores the shipped value sets where missing, and refuses (409) a measure whose value sets are not loaded.
    await this.measures.prepare(measures);
    const codes = await this.records.valueSetCodes([...new Set(measures.flatMap(valueSetsOf))]);
    const shipped = this.shippedValueSets();
    const report = await this.conformance.report();
    const today = new Date();
    return measures.map((measure, i) =>
      measureDesign({
        measure,
        shipped: SHIPPED_MEASURES.find((m) => m.id === measure.id)!,
        ...versions[i],
        codes,
        shippedCodes: shipped.codes,
        titles: shipped.titles,
        deck: report.measures.find((d) => d.id === measure.id) ?? null,
        decksAvailable: report.available,
        today,
      }),
    );
  }

  /** The shipped expansions' codes and titles by URL (the files do not change while the process runs). */
  private shippedValueSets(): { codes: Codes; titles: Map<string, string> } {
    if (this.shipped) return this.shipped;
    const codes = new Map<string, string[]>();
    const titles = new Map<string, string>();
    for (const v of shippedValueSets()) {
      const url = String(v.url);
      codes.set(url, [...new Set([...(codes.get(url) ?? []), ...codesOf(v)])]);
      const title = typeof v.title === 'string' ? v.title : typeof v.name === 'string' ? v.name : null;
      if (title) titles.set(url, title);
    }
    this.shipped = { codes, titles };
    return this.shipped;
  }
}
