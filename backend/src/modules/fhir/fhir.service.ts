import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  FHIR_RESULT_EXTENSION_PATH,
  type AnswerDetailJson,
  type AssessmentResultJson,
  type FhirBundleJson,
  type FhirResourceJson,
  type QuestionJson,
  type UndeterminedRuleJson,
} from '@cds/contracts';
import {
  clinicalQuestionOrder,
  clinicalStart,
  clinicalStep,
  questionFor,
  type Answers,
  type AnswerValue,
  type ClinicalStep,
} from '@cds/engine';
import type {
  Extension,
  GuidanceResponse,
  Parameters,
  Questionnaire,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  Resource,
} from '@medplum/fhirtypes';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { AuthUser } from '../../common/auth-user';
import { conflict, DomainError, notFound } from '../../common/errors';
import { questionJson, recordAnswer } from '../assessments';
import type { AnswerDto } from '../assessments';
import { askedTwice, AssessmentsService } from '../assessments';
import { enteredOf, toResult } from '../assessments';
import { PublishedRules, type Knowledge } from '../assessments';
import { ParametersService } from '../parameters';
import { RuleVersionsService } from '../rules';
import {
  clean,
  guidanceResponse,
  observation,
  questionnaire,
  questionnaireUrl,
  responseAnswer,
  type FhirContext,
  type VersionInfo,
} from './fhir-resources';
import { planDefinition } from './plan-definition';
import {
  answerInput,
  invalidResource,
  optionSystem,
  questionnaireOf,
  type ParsedResponse,
  type ResponseItem,
} from './questionnaire-response';

const EXACT_VALUE_EXTENSION = '/api/fhir/StructureDefinition/exact-value-requested';
/** The id of the adaptive Questionnaire contained in each response. */
const ADAPTIVE_ID = 'questionnaire';

interface Version {
  info: VersionInfo;
  k: Knowledge;
}

/**
 * FHIR R4 out (issue 11): an assessment as a Bundle, a published rule-set version as a
 * PlanDefinition with its Library, and the rule set's adaptive Questionnaire, whose
 * $next-question runs the clinical form's engine step by step.
 */
@Injectable()
export class FhirService {
  constructor(
    private readonly assessments: AssessmentsService,
    private readonly published: PublishedRules,
    private readonly versions: RuleVersionsService,
    private readonly parameters: ParametersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The assessment (same visibility as GET /api/assessments/:id) as a collection Bundle. */
  async assessmentBundle(user: AuthUser, id: string): Promise<FhirBundleJson> {
    const a = await this.assessments.get(user, id, false);
    const k = await this.published.of(a.rule_set_versions);
    const ctx = await this.context(k);
    const qrUrl = `urn:uuid:${a.id}`;
    const q = questionnaire(ctx, this.questionnaireVersion(a.rule_set_versions, k), await this.questions(k));
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
    const guidance = this.results(ctx, k, result, {
      completed: a.is_completed,
      occurrence: a.completed_at ?? a.updated_at,
      requestIdentifier: a.id,
      ids: () => [randomUUID(), randomUUID()],
      ref: (_type, rid) => `urn:uuid:${rid}`,
      observationRef: (pid) => latest.get(pid),
    });
    const entries: Resource[] = [q, qr, ...observations, ...guidance];
    return bundle(
      a.id,
      entries.map((r) => ({ fullUrl: r.resourceType === 'Questionnaire' ? (r.url as string) : `urn:uuid:${r.id}`, resource: r })),
    );
  }

  /** A published version as its PlanDefinition and Library of conditions. */
  async ruleVersionBundle(ruleSetId: string, number: number): Promise<FhirBundleJson> {
    const v = await this.version(ruleSetId, number);
    const ctx = await this.context(v.k);
    const [plan, library] = planDefinition(ctx, v.info, v.k.rules, v.k.parameters);
    return bundle(randomUUID(), [
      { fullUrl: plan.url!, resource: plan },
      { fullUrl: library.url!, resource: library },
    ]);
  }

  /** The rule set's latest published version as a Questionnaire: its questions in the clinical form's order. */
  async questionnaire(ruleSetId: string): Promise<FhirResourceJson> {
    const v = await this.version(ruleSetId, undefined, true);
    return questionnaire(await this.context(v.k), v.info, await this.questions(v.k)) as unknown as FhirResourceJson;
  }

  /**
   * SDC $next-question: the answers given are replayed through the clinical form's engine step by
   * step (each checked as the form checks it), then the response comes back with the next
   * question, or completed with the result contained.
   */
  async nextQuestion(ruleSetId: string, parsed: ParsedResponse): Promise<FhirResourceJson> {
    const target = questionnaireOf(parsed.questionnaire);
    const own = questionnaireUrl({ base: this.ctxBase(), loinc: new Map() }, ruleSetId);
    // Ours only: this server's canonical URL, or the relative reference; another server's Questionnaire is another Questionnaire.
    const url = parsed.questionnaire.split('|')[0];
    if (!target || target.id !== ruleSetId || (url !== own && url !== `Questionnaire/${ruleSetId}`)) {
      throw new DomainError(
        'questionnaire_mismatch',
        `This QuestionnaireResponse answers ${parsed.questionnaire.slice(0, 200)}, not Questionnaire/${ruleSetId}`,
        [{ field: 'questionnaire', message: `must be ${own}` }],
      );
    }
    if (target.version === -1) throw invalidResource('questionnaire', 'the version after | must be a version number');
    const v = await this.version(ruleSetId, target.version ?? undefined, true);
    const { k } = v;
    const ctx = await this.context(k);
    // The reference time is when the response was started, so replaying it gives the same result.
    const now = parsed.authored ?? new Date();
    const system = optionSystem(ctx.base);

    const queue = new Map<string, { item: ResponseItem; next: number }[]>();
    parsed.items.forEach((item) => queue.set(item.linkId, [...(queue.get(item.linkId) ?? []), { item, next: 0 }]));
    const answers: Answers = {};
    const completed: string[] = [];
    const details: AnswerDetailJson[] = [];
    let step: ClinicalStep = clinicalStart(k.rules, k.parameters, { now, prepared: k.prepared });
    while (step.status === 'question') {
      const pending = (queue.get(step.parameter_id) ?? []).find((e) => e.next < e.item.answers.length);
      if (!pending) break;
      const index = parsed.items.indexOf(pending.item);
      const field = `item[${index}].answer[${pending.next}]`;
      const p = k.parameterById.get(step.parameter_id)!;
      const options = questionJson(step.question, '').options;
      const input = answerInput(pending.item.answers[pending.next], options, system, field);
      pending.next += 1;
      const detail = withField(field, () => recordAnswer(p, options, { parameter_id: p.id, ...input } as AnswerDto, new Date()));
      answers[p.id] = detail.value as AnswerValue;
      completed.push(p.id);
      details.push(detail);
      step = clinicalStep(k.rules, k.parameters, answers, { now, exactValueRequested: askedTwice(completed), prepared: k.prepared });
    }
    const unasked = parsed.items.findIndex((item) =>
      (queue.get(item.linkId) ?? []).some((e) => e.item === item && e.next < item.answers.length),
    );
    if (unasked >= 0) {
      const item = parsed.items[unasked];
      if (step.status === 'completed')
        throw conflict(`Nothing more is asked: item[${unasked}] (${item.linkId}) comes after the last question.`);
      throw new DomainError(
        'validation_failed',
        `item[${unasked}] answers a question that was not asked; the next question is ${step.display_name}`,
        [{ field: `item[${unasked}].linkId`, message: `must be ${step.parameter_id} (${step.display_name})` }],
      );
    }

    const items = parsed.items.map((i) => i.raw);
    const out: QuestionnaireResponse = {
      ...(parsed.raw as unknown as QuestionnaireResponse),
      questionnaire: `#${ADAPTIVE_ID}`,
      authored: now.toISOString(),
      status: step.status === 'completed' ? 'completed' : 'in-progress',
    };
    delete out.contained;
    if (step.status === 'question') {
      const text = (await this.published.questionText(k.parameterById.get(step.parameter_id)!)) || step.display_name;
      const last = [...parsed.items].reverse().find((i) => i.linkId === step.parameter_id);
      if (step.exact_value_requested && last && last.answers.length) {
        // Asked again for the exact value: the client adds a second answer to the same item.
        const at = items.lastIndexOf(last.raw);
        items[at] = {
          ...last.raw,
          extension: [
            ...arrayOf(last.raw.extension),
            { url: `${ctx.base}${EXACT_VALUE_EXTENSION}`, valueString: step.exact_value_reason ?? 'Enter the exact value.' },
          ],
        };
      } else if (!last) {
        items.push({ linkId: step.parameter_id, text });
      }
      out.item = items as unknown as QuestionnaireResponse['item'];
      out.contained = [await this.asked(ctx, v, items)];
      return out as unknown as FhirResourceJson;
    }
    const result = toResult(step, k, enteredOf(details));
    const [gr, params] = this.results(ctx, k, result, {
      completed: true,
      occurrence: new Date().toISOString(),
      ids: () => ['result', 'findings'],
      ref: (_type, rid) => `#${rid}`,
      observationRef: () => undefined,
    });
    out.item = items as unknown as QuestionnaireResponse['item'];
    out.contained = [await this.asked(ctx, v, items), gr, ...(params ? [params] : [])] as QuestionnaireResponse['contained'];
    out.extension = [
      ...arrayOf<Extension>(out.extension).filter((e) => e?.url !== `${ctx.base}${FHIR_RESULT_EXTENSION_PATH}`),
      { url: `${ctx.base}${FHIR_RESULT_EXTENSION_PATH}`, valueReference: { reference: '#result' } },
    ];
    return out as unknown as FhirResourceJson;
  }

  /**
   * SDC's adaptive form: the Questionnaire as built so far (the items asked, with their options and
   * units), contained in the response, derived from the rule set's Questionnaire.
   */
  private async asked(ctx: FhirContext, v: Version, items: readonly Record<string, unknown>[]): Promise<Questionnaire> {
    const ids = [...new Set(items.map((i) => i.linkId as string))].filter((id) => v.k.parameterById.has(id));
    const questions = await Promise.all(
      ids.map(async (id) => {
        const p = v.k.parameterById.get(id)!;
        return questionJson(questionFor(p, v.k.rules, v.k.parameters), await this.published.questionText(p));
      }),
    );
    const q = questionnaire(ctx, v.info, questions);
    return clean({
      ...q,
      id: ADAPTIVE_ID,
      url: undefined,
      derivedFrom: [`${questionnaireUrl(ctx, v.info.rule_set_id)}|${v.info.version}`],
    });
  }

  /** One GuidanceResponse (and its output Parameters) per rule-set version evaluated. */
  private results(
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

  private questionnaireVersion(refs: readonly { rule_set_id: string; name: string; version: number }[], k: Knowledge): VersionInfo {
    if (refs.length === 1) return { ...refs[0], source: k.sourceOfRuleSet.get(refs[0].rule_set_id) ?? null };
    return {
      rule_set_id: 'assessment',
      name: `Questions of ${refs.map((r) => `${r.name} v${r.version}`).join(', ') || 'no rule set'}`,
      version: 0,
    };
  }

  private async questions(k: Knowledge): Promise<QuestionJson[]> {
    return Promise.all(
      clinicalQuestionOrder(k.rules, k.parameters).map(async (p) =>
        questionJson(questionFor(p, k.rules, k.parameters), await this.published.questionText(p)),
      ),
    );
  }

  /** A published version (the latest when no number is given) and the rules it holds. */
  private async version(ruleSetId: string, number?: number, clinical = false): Promise<Version> {
    if (clinical) {
      // Clinicians get only what the clinical form would use: an active, published rule set (a
      // response started on an older version of it may finish on that version).
      const live = (await this.versions.loadPublishedRuleSets()).find((s) => s.rule_set_id === ruleSetId);
      if (!live) throw notFound('Active published rule set');
      number ??= live.version;
    }
    let v;
    if (number === undefined) {
      v = (await this.versions.versions(ruleSetId))[0];
      if (!v) throw notFound('Published version of this rule set');
    } else {
      v = await this.versions.version(ruleSetId, number);
    }
    const k = await this.published.of([{ version_id: v.id, rule_set_id: v.rule_set_id, name: v.name, version: v.number }]);
    return { info: { rule_set_id: v.rule_set_id, name: v.name, version: v.number, published_at: v.published_at, source: v.source }, k };
  }

  private ctxBase(): string {
    return this.config.publicUrl;
  }

  private async context(k: Knowledge): Promise<FhirContext> {
    return { base: this.ctxBase(), loinc: await this.parameters.loincCodes(k.parameters.map((p) => p.id)) };
  }
}

function missingParameters(undetermined: readonly UndeterminedRuleJson[], k: Knowledge) {
  const ids = new Set(undetermined.flatMap((u) => u.unknown_parameters.map((m) => m.parameter_id).filter((id): id is string => !!id)));
  return [...ids].map((id) => k.parameterById.get(id)).filter((p) => p !== undefined);
}

/** A refusal of one answer names the answer's place in the response. */
function withField<T>(field: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    const details = Array.isArray(e.details)
      ? (e.details as { field: string; message: string }[]).map((d) => ({ ...d, field: `${field}.${d.field}` }))
      : e.details;
    throw new DomainError(e.code, `${field}: ${e.message}`, details);
  }
}

/** A client's element that should be an array; anything else is dropped rather than trusted. */
function arrayOf<T = unknown>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

function bundle(id: string, entry: { fullUrl: string; resource: Resource }[]): FhirBundleJson {
  return {
    resourceType: 'Bundle',
    id,
    type: 'collection',
    timestamp: new Date().toISOString(),
    entry: entry as FhirBundleJson['entry'],
  };
}
