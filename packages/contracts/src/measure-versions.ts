import type { MeasureDraftRuleJson } from './measure-design';

/**
 * A quality measure's saved versions (issue 21): version 1 is the definition the product ships (CMS as
 * specified, kept in code, never stored); an administrator's edits of its population rules are saved as a
 * draft and published as local versions 2, 3, …
 */
export type MeasureVersionStatus = 'draft' | 'published' | 'retired';

/** Who did something, and when. */
export interface MeasureVersionActorJson {
  user_id: string | null;
  /** The user's email; null when the user was deleted. */
  email: string | null;
  at: string;
}

/** One row of a measure's history (`GET /api/measures/designs/:id/versions`), newest first. */
export interface MeasureVersionJson {
  measure_id: string;
  version: number;
  /** "1 (CMS as shipped)", "2 (local)". */
  label: string;
  status: MeasureVersionStatus;
  /** `shipped`: version 1, the CMS definition; `local`: an administrator's edit of it. */
  source: 'shipped' | 'local';
  /** Moves on with every save of a draft: a save or publish naming an older revision is refused (409). */
  revision: number;
  /** Why the version was made (required to publish); null for the shipped version and a draft not yet published. */
  note: string | null;
  /** null for the shipped version. */
  created: MeasureVersionActorJson | null;
  updated: MeasureVersionActorJson | null;
  published: MeasureVersionActorJson | null;
}

/** One version with its population rules, as a draft sends them (`GET …/versions/:version`, `PUT …/draft`). */
export interface MeasureVersionDetailJson extends MeasureVersionJson {
  rules: MeasureDraftRuleJson[];
}

/** `PUT /api/measures/designs/:id/draft`: save the measure's one draft (created when there is none). */
export interface MeasureDraftSaveJson {
  /** Every population rule of the draft (the measure's record criteria are kept as shipped). */
  rules: MeasureDraftRuleJson[];
  /** The draft's revision this edit was made on; null to start a new draft. Anything else is a stale edit (409). */
  draft_revision: number | null;
}

/** `POST /api/measures/designs/:id/draft/publish`: publish the draft as the measure's current version. */
export interface MeasurePublishJson {
  /** Why the measure changes, for the history and for every report that names the local version (1–1000 characters). */
  note: string;
  /** The draft's revision the administrator reviewed: a draft saved since is refused (409). */
  draft_revision: number;
}

/** What a report of a measure says of its version when it is not the CMS definition as shipped. */
export interface MeasureLocalVersionJson {
  version: number;
  /** "2 (local)". */
  label: string;
  note: string;
  published_at: string;
}
