import { randomUUID } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import {
  isAdmin,
  RECORD_CONTEXT_TTL_MINUTES,
  type AnswerDetailJson,
  type AssessmentJson,
  type AssessmentSummaryJson,
} from '@cds/contracts';
import { clinicalStart, clinicalStep, type Answers, type AnswerValue, type ClinicalStep, type LogEntry } from '@cds/engine';
import { conflict, DomainError, notFound } from '../../common/errors';
import { ListQuery, Page } from '../../common/pagination';
import type { AuthUser } from '../../common/auth-user';
import { iso } from '../../common/api-helpers';
import {
  checkAgainstAnswers,
  checkConfirmedFrom,
  checkConfirmedValue,
  checkObservedAt,
  notAsked,
  questionJson,
  recordAnswer,
  repeatsAnswer,
} from './answer-record';
import type { AnswerDto } from './assessments.dto';
import { caseListFilter } from './case-history';
import { AssessmentsRepository, awaitingAnswer, type AssessmentRow, type AssessmentState } from './assessments.repository';
import { enteredOf, logEntries, toResult } from './outcome';
import { checkWithCodes, KnowledgeFacts, guardOf, nothingSeen, type Seen } from './knowledge-facts';
import { PublishedRules, type Knowledge } from './published-rules';
import { historiesOf, RecordContexts, type RecordContext } from './record-context';
import { WrittenRows } from './written-rows';

export { ASSESSMENT_SORTABLE } from './assessments.repository';

type Row = AssessmentRow;

/**
 * Parameters whose exact value was requested: the engine asks again (once) after a band that
 * straddles a threshold, so a parameter answered twice was asked for its exact value.
 */
export function askedTwice(answered: readonly string[]): string[] {
  return [...new Set(answered.filter((id, i) => answered.indexOf(id) !== i))];
}

/** Optimistic writes: a lost race re-reads and re-checks, so each answer applies to the state it was checked against. */
const MAX_ATTEMPTS = 5;

function staleStep(row: Row): DomainError {
  return new DomainError(
    'stale_step',
    'This assessment has moved on since that question was shown; reload it and answer the current question.',
    {
      step: row.step,
      current_parameter_id: row.current_parameter_id,
      is_completed: row.is_completed,
    },
  );
}

@Injectable()
export class AssessmentsService {
  constructor(
    private readonly repo: AssessmentsRepository,
    private readonly published: PublishedRules,
    private readonly facts: KnowledgeFacts,
    // Provided by the CDS Hooks module, whose prefill tickets hold the contexts; absent, no context can be named.
    @Optional() private readonly contexts?: RecordContexts,
  ) {}

  /** The in-progress assessments this process wrote last (see WrittenRows). */
  private readonly written = new WrittenRows<Row>();

  /**
   * Loads the active rules of the published, active rule sets and asks the first question (or completes at once).
   * `recordContext` (from a redeemed prefill) keeps the patient and the results the prefill was read from.
   */
  async start(user: AuthUser, recordContext?: string): Promise<AssessmentJson> {
    const id = randomUUID();
    const context = recordContext === undefined ? null : await this.attach(recordContext, user, id);
    try {
      for (let attempt = 1; ; attempt++) {
        // The published versions and the wording as kept in this process; the insert applies only while they are current.
        const seen = nothingSeen();
        const k = await this.facts.current(seen);
        const at = new Date();
        const step = clinicalStart(k.rules, k.parameters, { now: at, prepared: k.prepared });
        const state = await this.state(k, step, [], at, seen);
        const loaded: LogEntry = {
          type: 'info',
          message: `Loaded ${k.rules.length} active rule${k.rules.length === 1 ? '' : 's'} from ${k.versions.length} published rule set${k.versions.length === 1 ? '' : 's'}`,
          data: { rule_set_versions: k.versions },
        };
        const { written, generation } = await this.repo.insert({
          ...state,
          id,
          user_id: user.id,
          rule_set_versions: k.versions,
          debug_log: logEntries([loaded, ...step.log], at),
          created_at: at,
          record_patient: context?.patient ?? null,
          record_history: context?.history ?? null,
          generation: guardOf(seen),
        });
        if (!written) {
          // A publish or a parameter edit committed since the kept facts were read: decide again on fresh ones.
          this.facts.forget(generation);
          if (attempt >= MAX_ATTEMPTS)
            throw new DomainError('stale_step', 'The rules changed while the assessment was being started; try again.');
          continue;
        }
        const row: Row = {
          id,
          user_id: user.id,
          user_email: user.email,
          step: 1,
          answers: {},
          completed_parameter_ids: [],
          answer_details: [],
          rule_set_versions: k.versions,
          created_at: at,
          updated_at: at,
          patient: context?.patient ?? null,
          ...state,
        };
        if (!row.is_completed) this.written.keep(row);
        return toJson(row);
      }
    } catch (e) {
      if (context) await this.contexts!.release(recordContext!, id).catch(() => undefined);
      throw e;
    }
  }

  /** The context of a prefill this user redeemed lately, tied to assessment `id`; 410 when it cannot be. */
  private async attach(ref: string, user: AuthUser, id: string): Promise<RecordContext> {
    const context = this.contexts ? await this.contexts.attach(ref, user.id, id) : null;
    if (!context)
      throw new DomainError(
        'record_context_unavailable',
        `The patient's record context cannot be used: it is kept for ${RECORD_CONTEXT_TTL_MINUTES} minutes after the values are loaded, for the clinician who loaded them, and for one assessment. Open the patient from the Panel or the EHR again.`,
      );
    return context;
  }

  /**
   * Checks the answer against the question asked, stores it as entered and evaluates the rules.
   * Two answers at once never overwrite each other: the update applies only to the step that was checked.
   */
  async answer(user: AuthUser, id: string, dto: AnswerDto): Promise<AssessmentJson> {
    for (let attempt = 1; ; attempt++) {
      const copy = this.written.take(id, user.id);
      if (copy) {
        // Decided on this process's copy: only a write that applies counts; anything else is decided again on the stored row.
        const done = await this.tryAnswer({ ...copy, user_email: user.email }, dto, true).catch(() => null);
        if (done) return done;
        this.written.drop(id);
      }
      const row = await this.own(id, user);
      const done = await this.tryAnswer(row, dto, false);
      if (done) return done;
      if (attempt >= MAX_ATTEMPTS) throw staleStep(row);
    }
  }

  /** Checks and writes one answer on `row`; null when another write got there first. */
  private async tryAnswer(row: Row, dto: AnswerDto, copy: boolean): Promise<AssessmentJson | null> {
    // A repeated request (double click, retry) for the answer just recorded changes nothing.
    if (repeatsAnswer(row.answer_details.at(-1), dto) && (dto.step === undefined || dto.step === row.step - 1)) {
      return copy ? null : toJson(row);
    }
    // A parameter is asked twice only when a band straddled a threshold and the exact value is wanted.
    const question = row.current_question;
    if (row.completed_parameter_ids.includes(dto.parameter_id) && question?.parameter_id !== dto.parameter_id) throw staleStep(row);
    if (row.is_completed || !question) throw conflict('This assessment is already completed; start a new one.', { step: row.step });
    if (dto.step !== undefined && dto.step !== row.step) throw staleStep(row);
    const k = await this.published.of(row.rule_set_versions);
    if (dto.parameter_id !== question.parameter_id) throw notAsked(k.parameterById.has(dto.parameter_id), question.display_name);
    const parameter = k.parameterById.get(question.parameter_id)!;
    const at = new Date();
    checkConfirmedFrom(dto, row.patient ?? null);
    // Only a confirmed number reads the snapshot (not on the path of an ordinary answer).
    if (dto.confirmed_from && typeof dto.value === 'number')
      checkConfirmedValue(dto, (await this.repo.find(row.id, row.user_id, false, true))?.record_history ?? null);
    const detail = recordAnswer(parameter, question.options, dto, at);
    const seen = nothingSeen();
    await checkWithCodes(this.facts, seen, (codes) =>
      checkAgainstAnswers(detail, row.answer_details, codes).then(() => checkObservedAt(parameter, dto, at, codes)),
    );

    const answers: Answers = { ...row.answers, [parameter.id]: detail.value as AnswerValue };
    const details = [...row.answer_details, detail];
    // The reference time is the assessment's start, so replaying its answers gives the same result.
    const completed = [...row.completed_parameter_ids, parameter.id];
    const step = clinicalStep(k.rules, k.parameters, answers, {
      now: row.created_at,
      exactValueRequested: askedTwice(completed),
      prepared: k.prepared,
    });
    const state = await this.state(k, step, details, at, seen);
    const log = logEntries(
      [
        {
          type: 'info',
          message: `Answer: ${parameter.display_name} = ${detail.label}`,
          data: { parameter_id: parameter.id, value: detail.value, unit: detail.unit, entered_as: detail.entered_as },
        },
        ...step.log,
      ],
      at,
    );
    const { written, generation } = await this.repo.applyAnswer(row.id, row.step, {
      ...state,
      parameter_id: parameter.id,
      detail,
      log,
      at,
      generation: guardOf(seen),
    });
    if (!written) {
      // A parameter or rule set changed since the kept facts were read (or another write came first): read them again.
      if (guardOf(seen) !== null && generation !== seen.generation) this.facts.forget(generation);
      return null;
    }
    const next: Row = {
      ...row,
      ...state,
      answers,
      step: row.step + 1,
      updated_at: at,
      completed_parameter_ids: completed,
      answer_details: details,
    };
    if (next.is_completed) this.written.drop(row.id);
    else this.written.keep(next);
    return toJson(next);
  }

  /** A PCP sees their own assessments; an administrator sees every one. */
  async get(user: AuthUser, id: string, debug: boolean): Promise<AssessmentJson> {
    const stored = await this.repo.find(id, isAdmin(user.role) ? null : user.id, debug, true);
    if (!stored) throw notFound('Assessment');
    const row = { ...stored, user_email: stored.user_id === user.id ? user.email : await this.repo.ownerEmail(stored.user_id) };
    return { ...toJson(row), ...(row.patient && row.record_history ? { histories: historiesOf(row.record_history) } : {}) };
  }

  /**
   * Case history, newest first. A PCP gets their own; an administrator gets all, or their own
   * with filter {"mine": true}; filter user_id narrows to one user.
   */
  async list(user: AuthUser, q: ListQuery): Promise<Page<AssessmentJson>> {
    const filter = caseListFilter(user, q.filter);
    if (!filter) return new Page('assessments', [], 0, q.offset);
    const { rows, total } = await this.repo.list(q, filter);
    return new Page('assessments', rows.map(toJson), total, q.offset);
  }

  /** The caller's own figures for the PCP dashboard, and the rules a new assessment would use. */
  async summary(user: AuthUser): Promise<AssessmentSummaryJson> {
    const [counts, k] = await Promise.all([this.repo.countsFor(user.id), this.published.current()]);
    return { ...counts, active_rules: k.rules.length };
  }

  /** Only the owner may answer, administrators included. */
  private async own(id: string, user: AuthUser): Promise<Row> {
    const row = await this.repo.find(id, user.id);
    if (!row) throw notFound('Assessment');
    return { ...row, user_email: user.email };
  }

  /** Where the step leaves the assessment; the question worded as its parameter is stored now (kept facts, `seen`). */
  private async state(k: Knowledge, step: ClinicalStep, details: AnswerDetailJson[], at: Date, seen: Seen): Promise<AssessmentState> {
    if (step.status === 'question') {
      const p = k.parameterById.get(step.parameter_id)!;
      return awaitingAnswer(p.id, questionJson(step.question, await this.facts.questionText(p, seen)));
    }
    const result = toResult(step, k, enteredOf(details));
    return { current_parameter_id: null, current_question: null, is_completed: true, ...result, completed_at: at };
  }
}

function toJson(r: Row): AssessmentJson {
  return {
    id: r.id,
    user_id: r.user_id,
    user_email: r.user_email,
    is_completed: r.is_completed,
    step: Number(r.step),
    current_parameter_id: r.current_parameter_id ?? null,
    current_question: r.current_question ?? null,
    answers: r.answers,
    completed_parameter_ids: r.completed_parameter_ids,
    answer_details: r.answer_details,
    recommendation: r.recommendation ?? null,
    findings: r.findings ?? [],
    undetermined_rules: r.undetermined_rules,
    ruled_out: r.ruled_out ?? [],
    rule_set_versions: r.rule_set_versions,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    completed_at: iso(r.completed_at),
    patient: r.patient ?? null,
    ...(r.debug_log ? { debug_log: r.debug_log } : {}),
  };
}
