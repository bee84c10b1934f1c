import type { MeasureDesignJson } from '@cds/contracts';
import { design } from './measureDesign';
// Written from the server's measureDesign() for the shipped CMS122, CMS951 and CMS165 (parts kept to their value sets' names).
import shipped from './measureFlowDesigns.json';

type Shipped = Pick<
  MeasureDesignJson,
  'id' | 'identifier' | 'title' | 'improvement_notation' | 'goal' | 'score_meaning' | 'populations' | 'criteria'
>;

/** A measure with every population as GET /api/measures/designs/:id gives it: version 1 published, no draft. */
const published = (m: Shipped): MeasureDesignJson => ({
  ...design,
  ...m,
  analysis: { summary: { error: 0, warning: 0, info: 0 }, findings: [] },
  published: { ...design.published, measure_id: m.id },
});

export const cms122 = published(shipped.CMS122 as Shipped);
export const cms951 = published(shipped.CMS951 as Shipped);
export const cms165 = published(shipped.CMS165 as Shipped);
