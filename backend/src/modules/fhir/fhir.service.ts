import { Inject, Injectable } from '@nestjs/common';
import { FHIR_RESULT_EXTENSION_PATH, type AnswerDetailJson, type FhirResourceJson } from '@cds/contracts';
import { clinicalStart, clinicalStep, questionFor, type Answers, type AnswerValue, type ClinicalStep } from '@cds/engine';
import type { Extension, Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { conflict, DomainError, notFound } from '../../common/errors';
import {
  askedTwice,
  enteredOf,
  PublishedRules,
  questionJson,
  recordAnswer,
  toResult,
  type AnswerDto,
  type Knowledge,
} from '../assessments';
import { RuleVersionsService } from '../rules';
import { guidanceResults } from './bundles';
import { clean, questionnaire, questionnaireUrl, type FhirContext, type VersionInfo } from './fhir-resources';
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
 * The rule set's adaptive Questionnaire (issue 11), whose $next-question runs the clinical form's
 * engine step by step. The Bundles of an assessment and of a version are served by their own
 * modules through `content.ts`.
 */
@Injectable()
export class FhirService {
  constructor(
    private readonly published: PublishedRules,
    private readonly versions: RuleVersionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The rule set's latest published version as a Questionnaire: its questions in the clinical form's order. */
  async questionnaire(ruleSetId: string): Promise<FhirResourceJson> {
    const v = await this.version(ruleSetId, undefined, true);
    return questionnaire(await this.context(v.k), v.info, await this.published.questions(v.k)) as unknown as FhirResourceJson;
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
    const [gr, params] = guidanceResults(ctx, k, result, {
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
    return { base: this.ctxBase(), loinc: await this.published.loincCodes(k.parameters.map((p) => p.id)) };
  }
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
