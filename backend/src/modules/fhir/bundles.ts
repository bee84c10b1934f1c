import { randomUUID } from 'node:crypto';
import type {
  AnswerDetailJson,
  AssessmentJson,
  AssessmentResultJson,
  FhirBundleJson,
  QuestionJson,
  UndeterminedRuleJson,
} from '@cds/contracts';
import { questionFor, type EngineParameter, type EngineRule } from '@cds/engine';
import type { GuidanceResponse, Parameters, QuestionnaireResponse, QuestionnaireResponseItem, Resource } from '@medplum/fhirtypes';
import { questionJson, type Knowledge } from '../assessments/content';
import { clean, guidanceResponse, observation, questionnaire, responseAnswer, type FhirContext, type VersionInfo } from './fhir-resources';
import { planDefinition } from './plan-definition';

/**
 * The FHIR Bundles of an assessment and of a published rule-set version. Pure: the module that owns
 * the route (assessments, rules) loads the data and calls these, so neither imports the fhir module.
 */

export interface AssessmentFhirInput {
  ctx: FhirContext;
  assessment: AssessmentJson;
  knowledge: Knowledge;
  /** The versions' questions in the clinical form's order, with their wording as stored now. */
  questions: QuestionJson[];
}

/** The assessment as a collection Bundle: Questionnaire, QuestionnaireResponse, Observations, GuidanceResponses. */
export function assessmentBundle({ ctx, assessment: a, knowledge: k, questions }: AssessmentFhirInput): FhirBundleJson {
  const qrUrl = `urn:uuid:${a.id}`;
  const q = questionnaire(ctx, questionnaireVersion(a.rule_set_versions, k), questions);
  if (a.rule_set_versions.length !== 1) {
    q.id = randomUUID();
    q.url = `urn:uuid:${q.id}`;
    delete q.version;
  }
  const options = (parameterId: string) => {
    const p = k.parameterById.get(parameterId);
    return p ? questionJson(questionFor(p, k.rules, k.parameters), '').options : [];
  };

  const byParameter = new Map<string, AnswerDetailJson[]>();
  for (const d of a.answer_details) byParameter.set(d.parameter_id, [...(byParameter.get(d.parameter_id) ?? []), d]);
  const items: QuestionnaireResponseItem[] = [...byParameter.entries()].map(([pid, details]) =>
    clean({ linkId: pid, text: details[0].display_name, answer: details.map((d) => responseAnswer(ctx, d, options(pid))) }),
  );
  if (a.current_question) items.push({ linkId: a.current_question.parameter_id, text: a.current_question.text });
  const qr = clean({
    resourceType: 'QuestionnaireResponse',
    id: a.id,
    questionnaire: q.version ? `${q.url}|${q.version}` : q.url,
    status: a.is_completed ? 'completed' : 'in-progress',
    authored: a.created_at,
    item: items,
  }) as QuestionnaireResponse;

  const observations: Resource[] = [];
  const latest = new Map<string, string>();
  for (const d of a.answer_details) {
    const p = k.parameterById.get(d.parameter_id);
    const o = p ? observation(ctx, randomUUID(), d, p, qrUrl) : null;
    if (!o) continue;
    observations.push(o);
    latest.set(d.parameter_id, `urn:uuid:${o.id}`);
  }
  const result: AssessmentResultJson = {
    recommendation: a.recommendation,
    findings: a.findings,
    undetermined_rules: a.undetermined_rules,
  };
  const guidance = guidanceResults(ctx, k, result, {
    completed: a.is_completed,
    occurrence: a.completed_at ?? a.updated_at,
    requestIdentifier: a.id,
    ids: () => [randomUUID(), randomUUID()],
    ref: (_type, rid) => `urn:uuid:${rid}`,
    observationRef: (pid) => latest.get(pid),
  });
  const entries: Resource[] = [q, qr, ...observations, ...guidance];
  return collection(
    a.id,
    entries.map((r) => ({ fullUrl: r.resourceType === 'Questionnaire' ? (r.url as string) : `urn:uuid:${r.id}`, resource: r })),
  );
}

/** A published version as its PlanDefinition and Library of conditions. */
export function ruleVersionBundle(
  ctx: FhirContext,
  info: VersionInfo,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
): FhirBundleJson {
  const [plan, library] = planDefinition(ctx, info, rules, parameters);
  return collection(randomUUID(), [
    { fullUrl: plan.url!, resource: plan },
    { fullUrl: library.url!, resource: library },
  ]);
}

/** One GuidanceResponse (and its output Parameters) per rule-set version evaluated. */
export function guidanceResults(
  ctx: FhirContext,
  k: Knowledge,
  result: AssessmentResultJson,
  o: {
    completed: boolean;
    occurrence: string;
    requestIdentifier?: string;
    ids: () => [string, string];
    ref: (type: string, id: string) => string;
    observationRef: (parameterId: string) => string | undefined;
  },
): (GuidanceResponse | Parameters)[] {
  return k.versions.flatMap((ref) => {
    const findings = result.findings
      .map((finding, i) => ({ finding, rank: i + 1 }))
      .filter((f) => f.finding.rule_set_version_id === ref.version_id);
    const undetermined = result.undetermined_rules.filter((u) => k.ruleById.get(u.rule_id)?.rule_set_id === ref.rule_set_id);
    const [guidanceId, parametersId] = o.ids();
    const observed = [
      ...new Set(findings.flatMap((f) => f.finding.basis.map((b) => (b.parameter_id ? o.observationRef(b.parameter_id) : undefined)))),
    ];
    const [gr, params] = guidanceResponse(ctx, {
      version: { ...ref, source: k.sourceOfRuleSet.get(ref.rule_set_id) ?? null },
      findings,
      undetermined,
      missing: missingParameters(undetermined, k),
      completed: o.completed,
      occurrence: o.occurrence,
      requestIdentifier: o.requestIdentifier,
      guidanceId,
      parametersId,
      ref: o.ref,
      observationRef: o.observationRef,
      reasonReference: observed.filter((r): r is string => !!r).map((reference) => ({ reference })),
    });
    return params ? [gr, params] : [gr];
  });
}

function questionnaireVersion(refs: readonly { rule_set_id: string; name: string; version: number }[], k: Knowledge): VersionInfo {
  if (refs.length === 1) return { ...refs[0], source: k.sourceOfRuleSet.get(refs[0].rule_set_id) ?? null };
  return {
    rule_set_id: 'assessment',
    name: `Questions of ${refs.map((r) => `${r.name} v${r.version}`).join(', ') || 'no rule set'}`,
    version: 0,
  };
}

function missingParameters(undetermined: readonly UndeterminedRuleJson[], k: Knowledge) {
  const ids = new Set(undetermined.flatMap((u) => u.unknown_parameters.map((m) => m.parameter_id).filter((id): id is string => !!id)));
  return [...ids].map((id) => k.parameterById.get(id)).filter((p) => p !== undefined);
}

function collection(id: string, entry: { fullUrl: string; resource: Resource }[]): FhirBundleJson {
  return {
    resourceType: 'Bundle',
    id,
    type: 'collection',
    timestamp: new Date().toISOString(),
    entry: entry as FhirBundleJson['entry'],
  };
}
