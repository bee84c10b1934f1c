import { Injectable } from '@nestjs/common';
import type { MeasureVersionActorJson, MeasureVersionDetailJson, MeasureVersionJson } from '@cds/contracts';
import type { AuthUser } from '../../../common/auth-user';
import { conflict, notFound, validationFailed } from '../../../common/errors';
import { MeasureVersionsRepository, PublishedMeasures, type MeasureVersionRow } from '../../measure-versions';
import { draftRulesOf, shippedVersionJson, staleRuleNames, versionLabel } from '../local-version';
import type { ShippedMeasure } from '../measure-content';
import { analysisOf } from './measure-design';
import { readDraftRules } from './measure-draft';
import type { DraftPublish, DraftSave } from './measure-version-bodies';

const actor = (user_id: string | null, email: string | null, at: Date | null): MeasureVersionActorJson | null =>
  at ? { user_id, email, at: at.toISOString() } : null;

/** A stored version as the history lists it. */
function versionJson(r: MeasureVersionRow): MeasureVersionJson {
  return {
    measure_id: r.measure_id,
    version: r.version,
    label: versionLabel(r.version),
    status: r.status,
    source: 'local',
    revision: r.revision,
    note: r.note,
    created: actor(r.created_by, r.created_email, r.created_at),
    updated: actor(r.updated_by, r.updated_email, r.updated_at),
    published: actor(r.published_by, r.published_email, r.published_at),
  };
}

/**
 * A measure's saved versions (issue 21): its one draft (saved with an optimistic revision check, discarded, or
 * published with a change note when the engine can read it), and its history from version 1 as shipped.
 */
@Injectable()
export class MeasureVersionsService {
  constructor(
    private readonly versions: MeasureVersionsRepository,
    private readonly published: PublishedMeasures,
  ) {}

  /** Newest first, down to version 1 as shipped. */
  async history(id: string): Promise<MeasureVersionJson[]> {
    const shipped = this.published.shipped(id);
    const rows = await this.versions.list(id);
    return [
      ...rows.map(versionJson),
      shippedVersionJson(shipped.id, !rows.some((r) => r.status === 'published' || r.status === 'retired')),
    ];
  }

  /** The published version and the draft, as the designer shows them beside the measure. */
  async current(id: string): Promise<{ published: MeasureVersionJson; draft: MeasureVersionDetailJson | null }> {
    const shipped = this.published.shipped(id);
    const rows = await this.versions.list(id);
    const published = rows.find((r) => r.status === 'published');
    const draft = rows.find((r) => r.status === 'draft');
    return {
      published: published ? versionJson(published) : shippedVersionJson(shipped.id, true),
      draft: draft ? { ...versionJson(draft), rules: draft.rules } : null,
    };
  }

  async version(id: string, version: number): Promise<MeasureVersionDetailJson> {
    const shipped = this.published.shipped(id);
    if (version === 1) {
      const local = (await this.versions.list(id)).some((r) => r.status !== 'draft');
      return { ...shippedVersionJson(shipped.id, !local), rules: draftRulesOf(shipped.model) };
    }
    const row = await this.versions.find(id, version);
    if (!row) throw notFound(`Version ${version} of ${shipped.identifier}`);
    return { ...versionJson(row), rules: row.rules };
  }

  /** Saves the measure's one draft: a new one (draft_revision null), or the draft at the revision the edit was made on. */
  async saveDraft(user: AuthUser, id: string, body: DraftSave): Promise<MeasureVersionDetailJson> {
    const shipped = this.published.shipped(id);
    if (body.draft_revision === null) {
      const made = await this.versions.createDraft(id, body.rules, user.id);
      if (!made) throw conflict(`${shipped.identifier} already has a draft: reload the page and edit that one`);
    } else if (!(await this.versions.updateDraft(id, body.draft_revision, body.rules, user.id))) throw await this.stale(shipped);
    return this.draftOf(shipped);
  }

  async discardDraft(id: string, revision: number): Promise<void> {
    const shipped = this.published.shipped(id);
    if (!(await this.versions.discardDraft(id, revision))) throw await this.stale(shipped);
  }

  /**
   * Publishes the draft the administrator reviewed: refused with each problem (400) when the engine cannot read its
   * rules, and (409) when its analysis finds errors, when it is the version published now, or when it moved on.
   */
  async publish(user: AuthUser, id: string, body: DraftPublish): Promise<MeasureVersionDetailJson> {
    const shipped = this.published.shipped(id);
    const draft = await this.versions.draft(id);
    if (!draft || draft.revision !== body.draft_revision) throw await this.stale(shipped);
    const { model } = readDraftRules(shipped, { rules: draft.rules });
    const current = await this.published.one(id);
    const misnamed = [
      ...staleRuleNames(draft.rules, draftRulesOf(shipped.model)),
      ...staleRuleNames(draft.rules, draftRulesOf(current.model)),
    ];
    if (misnamed.length) throw validationFailed([...new Map(misnamed.map((p) => [p.field, p])).values()]);
    const analysis = analysisOf({ ...shipped, model });
    if (analysis.summary.error)
      throw conflict(`The draft's analysis finds ${analysis.summary.error} error(s): correct them before publishing`, analysis.findings);
    if (
      JSON.stringify({ r: model.rules, p: model.populations }) === JSON.stringify({ r: current.model.rules, p: current.model.populations })
    )
      throw conflict(`The draft is the version of ${shipped.identifier} published now: there is nothing to publish`);
    if (!(await this.versions.publish(id, body.draft_revision, draftRulesOf(model), body.note, user.id))) throw await this.stale(shipped);
    return this.version(id, draft.version);
  }

  private async draftOf(shipped: ShippedMeasure): Promise<MeasureVersionDetailJson> {
    const draft = await this.versions.draft(shipped.id);
    if (!draft) throw await this.stale(shipped);
    return { ...versionJson(draft), rules: draft.rules };
  }

  /** 409 when the draft moved on since the page read it, 404 when there is none to act on. */
  private async stale(shipped: ShippedMeasure) {
    const draft = await this.versions.draft(shipped.id);
    return draft
      ? conflict(
          `The draft of ${shipped.identifier} was saved by someone else since you opened it (it is now at revision ${draft.revision}): reload it before you change it`,
        )
      : notFound(`Draft of ${shipped.identifier}`);
  }
}
