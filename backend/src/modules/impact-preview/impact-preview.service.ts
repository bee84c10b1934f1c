import { Injectable } from '@nestjs/common';
import type { ImpactExampleJson, ImpactGroupJson, ImpactGroupKey, ImpactPreviewJson, ImpactRuleRef } from '@cds/contracts';
import {
  answerText,
  generatePopulation,
  ImpactComparer,
  ruleChanges,
  ruleSeverity,
  type EngineParameter,
  type EngineRule,
  type ImpactPatient,
} from '@cds/engine';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth-user';
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

const GROUP_LABELS: Record<ImpactGroupKey, string> = {
  assessments: 'Recorded assessments',
  vignettes: "This rule set's vignettes",
  generated: `${GENERATED_PATIENTS.toLocaleString('en-US')} patients generated around the cut-points`,
};

@Injectable()
export class ImpactPreviewService implements PublishImpactCheck {
  constructor(private readonly previews: ImpactPreviewRepository) {}

  /**
   * Runs the published combination (every active published set with this set's latest version)
   * and the combination publishing would make (this set's draft instead) on the three reference
   * populations, stores the result and returns it. Both sides use the compiled engine.
   */
  async create(actor: AuthUser, ruleSetId: string): Promise<ImpactPreviewJson> {
    const id = await this.previews.transaction(async (m) => {
      const started = process.hrtime.bigint();
      const set = await findRuleSet(m, ruleSetId);
      const draft = await draftContent(m, set.id);
      const latest = await latestVersion(m, set.id);
      const after = await loadCombination(m, set, draft.rules);
      const published = (latest?.rules ?? []).map((r) => ({ ...r, rule_set_id: set.id, version: latest!.number }));
      const before = await loadCombination(m, set, published);
      // The published side reads this set's rules with the parameters as they were published.
      const beforeParameters = withFirst(latest?.parameters ?? [], before.parameters);
      const afterParameters = withFirst(draft.parameters, after.parameters);
      const comparer = new ImpactComparer(before.rules, after.rules, beforeParameters, afterParameters);
      const now = new Date();
      const populations: Record<ImpactGroupKey, Labelled[]> = {
        assessments: (await this.previews.recordedAnswers(m)).map((a) => ({
          answers: a.answers,
          now: a.created_at,
          label: `Assessment of ${new Date(a.created_at).toISOString().slice(0, 10)}`,
        })),
        vignettes: (await vignettesOfSets(m, [set.id])).map((v) => ({
          answers: v.answers,
          now: v.reference_date ?? now,
          label: v.name,
        })),
        generated: generatePopulation([...before.rules, ...after.rules], afterParameters, {
          size: GENERATED_PATIENTS,
          seed: GENERATED_SEED,
          now,
        }).map((p, i) => ({ ...p, label: `Generated patient ${i + 1}` })),
      };
      const describe = describer(before, after, withFirst(afterParameters, beforeParameters));
      const groups: ImpactGroupJson[] = (Object.keys(GROUP_LABELS) as ImpactGroupKey[]).map((key) => {
        const patients = populations[key];
        const result = comparer.compare(patients, {
          examples: EXAMPLES,
          transitions: TRANSITIONS,
          findingChanges: FINDING_CHANGES,
          findingExamples: FINDING_EXAMPLES,
        });
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
      });
      return this.previews.save(m, {
        rule_set_id: set.id,
        draft_hash: contentHash(draft),
        base_version: latest?.number ?? null,
        seed: GENERATED_SEED,
        changes: ruleChanges(latest?.rules ?? [], draft.rules, beforeParameters, afterParameters),
        combination_hash: combinationHash(after),
        groups,
        elapsed_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
        created_by: actor.id,
      });
    });
    await this.previews.prune(ruleSetId, UNREFERENCED_MAX_AGE_HOURS, UNREFERENCED_KEPT_PER_SET);
    return this.get(ruleSetId, id);
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

/** `first`, then whatever of `rest` it does not define (by id). */
function withFirst(first: readonly EngineParameter[], rest: readonly EngineParameter[]): EngineParameter[] {
  const ids = new Set(first.map((p) => p.id));
  return [...first, ...rest.filter((p) => !ids.has(p.id))];
}

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
