import { setImmediate } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import type { ImpactExampleJson, ImpactGroupJson, ImpactGroupKey, ImpactPreviewJson, ImpactRuleRef } from '@cds/contracts';
import {
  answerText,
  generatePopulation,
  ImpactComparer,
  ruleChanges,
  type ImpactComparison,
  ruleSeverity,
  type EngineParameter,
  type EngineRule,
  type ImpactPatient,
} from '@cds/engine';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth-user';
import { progressStream, type Progress } from '../../common/progress-stream';
import { conflict, notFound } from '../../common/errors';
import {
  combinationHash,
  contentHash,
  draftContent,
  findRuleSet,
  latestVersion,
  loadCombination,
  PublishImpactCheck,
  vignettesOfSets,
  type Combination,
  type PreviewBasis,
} from '../rules';
import { ImpactPreviewRepository } from './impact-preview.repository';

/** The generated population: always this many patients from this seed, so two previews of one draft agree. */
export const GENERATED_PATIENTS = 10_000;
export const GENERATED_SEED = 20_261_123;
const EXAMPLES = 5;
/** Transitions listed per group: a sweeping edit of a large set can make thousands of small ones. */
const TRANSITIONS = 100;
/**
 * Findings gained or lost listed per group, and examples of each: a sweeping edit touches some finding
 * of nearly every patient, and the stored preview (read back on every publish) must stay small.
 */
const FINDING_CHANGES = 25;
const FINDING_EXAMPLES = 3;
/** Previews not published with a version are kept this long, and at most this many per rule set. */
export const UNREFERENCED_MAX_AGE_HOURS = 24;
export const UNREFERENCED_KEPT_PER_SET = 10;

interface Labelled extends ImpactPatient {
  label: string;
}

/** Patients compared per slice: a few hundred milliseconds at most between two progress reports. */
export const SLICE = 500;

/** What a preview read, before any patient is compared (ImpactPreviewService.prepare). */
export interface PreparedPreview {
  started: bigint;
  ruleSetId: string;
  draft: Awaited<ReturnType<typeof draftContent>>;
  latest: Awaited<ReturnType<typeof latestVersion>>;
  before: Combination;
  after: Combination;
  beforeParameters: EngineParameter[];
  afterParameters: EngineParameter[];
  now: Date;
  assessments: Labelled[];
  vignettes: Labelled[];
}

const GROUP_LABELS: Record<ImpactGroupKey, string> = {
  assessments: 'Recorded assessments',
  vignettes: "This rule set's vignettes",
  generated: `${GENERATED_PATIENTS.toLocaleString('en-US')} patients generated around the cut-points`,
};

@Injectable()
export class ImpactPreviewService implements PublishImpactCheck {
  private readonly logger = new Logger('ImpactPreview');

  constructor(private readonly previews: ImpactPreviewRepository) {}

  /**
   * Runs the published combination (every active published set with this set's latest version)
   * and the combination publishing would make (this set's draft instead) on the three reference
   * populations, stores the result and returns it. Both sides use the compiled engine.
   */
  async create(actor: AuthUser, ruleSetId: string): Promise<ImpactPreviewJson> {
    return this.compute(actor, await this.prepare(ruleSetId));
  }

  /**
   * Everything the preview reads, in one consistent snapshot: a rule set that does not exist is a
   * 404 here, before a streamed answer has begun. The generated population is drawn by `compute`.
   */
  async prepare(ruleSetId: string): Promise<PreparedPreview> {
    const started = process.hrtime.bigint();
    return this.previews.transaction(async (m) => {
      const set = await findRuleSet(m, ruleSetId);
      const draft = await draftContent(m, set.id);
      const latest = await latestVersion(m, set.id);
      const after = await loadCombination(m, set, draft.rules);
      const published = (latest?.rules ?? []).map((r) => ({ ...r, rule_set_id: set.id, version: latest!.number }));
      const before = await loadCombination(m, set, published);
      const now = new Date();
      return {
        started,
        ruleSetId: set.id,
        draft,
        latest,
        before,
        after,
        // The published side reads this set's rules with the parameters as they were published.
        beforeParameters: withFirst(latest?.parameters ?? [], before.parameters),
        afterParameters: withFirst(draft.parameters, after.parameters),
        now,
        assessments: (await this.previews.recordedAnswers(m)).map((a) => ({
          answers: a.answers,
          now: a.created_at,
          label: `Assessment of ${new Date(a.created_at).toISOString().slice(0, 10)}`,
        })),
        vignettes: (await vignettesOfSets(m, [set.id])).map((v) => ({ answers: v.answers, now: v.reference_date ?? now, label: v.name })),
      };
    });
  }

  /**
   * Compares every patient of the three populations in slices of SLICE, telling `progress` after
   * each how many of all of them were compared, and yields to other requests between slices. The
   * stored preview names the draft and combination it read, so publish refuses it if either moved.
   */
  async compute(actor: AuthUser, run: PreparedPreview, progress?: Progress): Promise<ImpactPreviewJson> {
    const { before, after, beforeParameters, afterParameters } = run;
    const comparer = new ImpactComparer(before.rules, after.rules, beforeParameters, afterParameters);
    const populations: Record<ImpactGroupKey, Labelled[]> = {
      assessments: run.assessments,
      vignettes: run.vignettes,
      generated: [],
    };
    const total = run.assessments.length + run.vignettes.length + GENERATED_PATIENTS;
    progress?.(0, total);
    populations.generated = generatePopulation([...before.rules, ...after.rules], afterParameters, {
      size: GENERATED_PATIENTS,
      seed: GENERATED_SEED,
      now: run.now,
    }).map((p, i) => ({ ...p, label: `Generated patient ${i + 1}` }));
    const describe = describer(before, after, withFirst(afterParameters, beforeParameters));
    const groups: ImpactGroupJson[] = [];
    let done = 0;
    for (const key of Object.keys(GROUP_LABELS) as ImpactGroupKey[]) {
      const patients = populations[key];
      const tally = comparer.tally({
        examples: EXAMPLES,
        transitions: TRANSITIONS,
        findingChanges: FINDING_CHANGES,
        findingExamples: FINDING_EXAMPLES,
      });
      for (let start = 0; start < patients.length; start += SLICE) {
        const end = Math.min(start + SLICE, patients.length);
        tally.add(patients, start, end);
        done += end - start;
        progress?.(done, total);
        // A preview takes seconds of CPU: other requests are served between slices, and the progress goes out.
        await setImmediate();
      }
      groups.push(groupJson(key, patients, tally.result(), describe));
    }
    const id = await this.previews.save({
      rule_set_id: run.ruleSetId,
      draft_hash: contentHash(run.draft),
      base_version: run.latest?.number ?? null,
      seed: GENERATED_SEED,
      changes: ruleChanges(run.latest?.rules ?? [], run.draft.rules, beforeParameters, afterParameters),
      combination_hash: combinationHash(after),
      groups,
      elapsed_ms: Math.round(Number(process.hrtime.bigint() - run.started) / 1e6),
      created_by: actor.id,
    });
    await this.previews.prune(run.ruleSetId, UNREFERENCED_MAX_AGE_HOURS, UNREFERENCED_KEPT_PER_SET);
    return this.get(run.ruleSetId, id);
  }

  /** `compute` as a stream of lines with its progress (common/progress-stream.ts); the last line is `{ preview }`. */
  streamed(actor: AuthUser, run: PreparedPreview): Readable {
    return progressStream((progress) => this.compute(actor, run, progress), this.logger);
  }

  async get(ruleSetId: string, id: string): Promise<ImpactPreviewJson> {
    const preview = await this.previews.find(ruleSetId, id);
    if (!preview) throw notFound('Impact preview');
    return preview;
  }

  async forVersion(ruleSetId: string, number: string): Promise<ImpactPreviewJson> {
    const preview = /^[1-9]\d{0,8}$/.test(number) ? await this.previews.findByVersion(ruleSetId, Number(number)) : null;
    if (!preview) throw notFound(`Impact preview of version ${number}`);
    return preview;
  }

  /**
   * The publish flow's check, inside its transaction: the admin must have seen a preview of
   * exactly this draft against exactly the latest version and the other active sets' current
   * versions, not used for an earlier publish.
   */
  async requireCurrent(m: EntityManager, ruleSetId: string, basis: PreviewBasis, previewId?: string): Promise<string> {
    if (!previewId) {
      throw conflict('Publishing needs the impact preview: review how this draft reclassifies patients, then publish with its id.', {
        impact_preview: 'required',
      });
    }
    const preview = await this.previews.forPublish(m, ruleSetId, previewId);
    if (!preview) throw notFound('Impact preview');
    if (preview.version_id)
      throw conflict('This impact preview was already used to publish; preview the draft again.', { impact_preview: 'used' });
    if (preview.draft_hash !== basis.draftHash || preview.base_version !== basis.baseVersion) {
      throw conflict('The draft changed since this impact preview was made; review the new preview before publishing.', {
        impact_preview: 'stale',
      });
    }
    if (preview.combination_hash !== basis.combinationHash) {
      throw conflict(
        'Another rule set was published, deactivated or deleted since this impact preview was made; review the new preview before publishing.',
        { impact_preview: 'stale' },
      );
    }
    return preview.id;
  }

  attach(m: EntityManager, previewId: string, versionId: string): Promise<void> {
    return this.previews.attach(m, previewId, versionId);
  }
}

function groupJson(key: ImpactGroupKey, patients: Labelled[], result: ImpactComparison, describe: Describer): ImpactGroupJson {
  return {
    key,
    label: GROUP_LABELS[key],
    patients: result.patients,
    changed: result.changed,
    more_transitions: result.more_transitions,
    transitions: result.transitions.map((t) => ({
      from: t.from === null ? null : describe.rule(t.from, 'before'),
      to: t.to === null ? null : describe.rule(t.to, 'after'),
      cause: describe.rule(t.cause, t.cause_kind === 'removed' ? 'before' : 'after'),
      cause_kind: t.cause_kind,
      count: t.count,
      examples: t.examples.map((i) => describe.example(patients[i])),
    })),
    findings_changed: result.findings_changed,
    more_finding_changes: result.more_finding_changes,
    finding_changes: result.finding_changes.map((c) => ({
      rule: describe.rule(c.rule, c.change === 'lost' ? 'before' : 'after'),
      change: c.change,
      cause_kind: c.cause_kind,
      count: c.count,
      same_primary: c.same_primary,
      examples: c.examples.map((i) => describe.example(patients[i])),
    })),
  };
}

/** `first`, then whatever of `rest` it does not define (by id). */
function withFirst(first: readonly EngineParameter[], rest: readonly EngineParameter[]): EngineParameter[] {
  const ids = new Set(first.map((p) => p.id));
  return [...first, ...rest.filter((p) => !ids.has(p.id))];
}

type Describer = ReturnType<typeof describer>;

function describer(before: Combination, after: Combination, parameters: readonly EngineParameter[]) {
  const rules = { before: new Map(before.rules.map((r) => [r.id, r])), after: new Map(after.rules.map((r) => [r.id, r])) };
  const byId = new Map(parameters.map((p) => [p.id, p]));
  return {
    rule(id: string, side: 'before' | 'after'): ImpactRuleRef {
      const rule: EngineRule | undefined = rules[side].get(id) ?? rules.before.get(id) ?? rules.after.get(id);
      const set = after.ruleSets.get(id) ?? before.ruleSets.get(id);
      return { rule_id: id, rule_name: rule?.name ?? id, rule_set_name: set?.name ?? null, severity: rule ? ruleSeverity(rule) : 'low' };
    },
    example(patient: Labelled): ImpactExampleJson {
      const values = Object.entries(patient.answers)
        .map(([key, value]) => {
          const p = byId.get(key);
          return { parameter: p ? p.display_name || p.name : key, value: p ? answerText(p, value) : String(value) };
        })
        .sort((a, b) => a.parameter.localeCompare(b.parameter));
      return { label: patient.label, answers: patient.answers, values };
    },
  };
}
