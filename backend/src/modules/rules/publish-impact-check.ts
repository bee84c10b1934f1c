import type { EntityManager } from 'typeorm';

/** What an impact preview was computed against; publishing with it is refused once any part differs. */
export interface PreviewBasis {
  draftHash: string;
  baseVersion: number | null;
  /** combinationHash() of the other active rule sets' versions. */
  combinationHash: string;
}

/**
 * What publishing asks of the impact preview (issue 13): that the admin saw a current preview,
 * and that it is kept with the version. The impact-preview module provides it (globally), so
 * that module depends on this one and not the other way round.
 */
export abstract class PublishImpactCheck {
  /** The preview's id; 409 when missing, used or stale, 404 when unknown. Inside the publish transaction. */
  abstract requireCurrent(m: EntityManager, ruleSetId: string, basis: PreviewBasis, previewId?: string): Promise<string>;
  abstract attach(m: EntityManager, previewId: string, versionId: string): Promise<void>;
}
