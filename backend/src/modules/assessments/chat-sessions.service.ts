import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isAdmin, type ChatSessionJson } from '@cds/contracts';
import {
  chatChoose,
  chatNextQuestion,
  chatQuestionOrder,
  chatStep,
  type Answers,
  type AnswerValue,
  type ChatQuestion,
  type ChatStep,
  type EngineParameter,
} from '@cds/engine';
import { conflict, DomainError, notFound, validationFailed } from '../../common/errors';
import { Page, type ListQuery } from '../../common/pagination';
import type { AuthUser } from '../../common/auth-user';
import { iso } from '../../common/api-helpers';
import { caseListFilter } from './case-history';
import { withNotAvailable } from './answer-check';
import { checkAgainstAnswers, checkConfirmedFrom, checkObservedAt, notAsked, recordAnswer, repeatsAnswer } from './answer-record';
import type { AnswerDto, ChoiceDto } from './assessments.dto';
import type { ChatMessage, ChatPending } from './chat-session.entity';
import { ChatSessionsRepository, type ChatChanges, type ChatSessionRow } from './chat-sessions.repository';
import { enteredOf, noFindingText, toActions, toMatchedRule, toRuledOut, toUndetermined } from './outcome';
import { checkWithCodes, KnowledgeFacts, guardOf, nothingSeen, type Seen } from './knowledge-facts';
import { PublishedRules, type Knowledge } from './published-rules';
import { WrittenRows } from './written-rows';

type Row = ChatSessionRow;
type Changes = ChatChanges;
const MAX_ATTEMPTS = 5;

function staleStep(row: Row): DomainError {
  return new DomainError(
    'stale_step',
    'This conversation has moved on since that question was shown; reload it and answer the current question.',
    {
      current_step: row.current_step,
      pending: row.pending,
      is_completed: row.is_completed,
    },
  );
}

function message(type: ChatMessage['type'], content: string, at: Date, extra: Partial<ChatMessage> = {}): ChatMessage {
  return { id: randomUUID(), type, content, ...extra, timestamp: at.toISOString() };
}

/** The Diagnostic Assistant (spec sections 3, 4 and 7): a chatbot_sessions row per conversation, only its owner may reach it. */
@Injectable()
export class ChatSessionsService {
  /** The open conversations this process wrote last (see WrittenRows): an answer to one needs no read. */
  private readonly written = new WrittenRows<Row>();

  constructor(
    private readonly repo: ChatSessionsRepository,
    private readonly published: PublishedRules,
    private readonly facts: KnowledgeFacts,
  ) {}

  /**
   * Writes the row (empty data, step 1, not completed) and asks the first question. With no
   * question to ask, pending stays null: the page says no questions are configured.
   */
  async start(user: AuthUser): Promise<ChatSessionJson> {
    const k = await this.published.current();
    const parameters = await this.parametersFor(k);
    const at = new Date();
    const question = chatNextQuestion(k.rules, parameters, {}, { prepared: k.prepared });
    const history = question ? [await this.questionMessage(question, parameters, at)] : [];
    const pending: ChatPending | null = question
      ? { kind: 'question', parameter_id: question.parameter_id, options: withNotAvailable(question.options) }
      : null;
    const row = await this.repo.insert({
      user_id: user.id,
      rule_set_versions: k.versions,
      conversation_history: history,
      pending,
      created_at: at,
    });
    if (!row.is_completed) this.written.keep(row);
    return toJson(row);
  }

  /** Own sessions; an administrator may read any (case review), but only the owner may answer or choose. */
  async get(user: AuthUser, id: string): Promise<ChatSessionJson> {
    const row = await this.repo.find(id, isAdmin(user.role) ? null : user.id);
    if (!row) throw notFound('Chat session');
    return toJson(row);
  }

  /**
   * Case history, as /api/assessments: everyone else gets their own sessions, an administrator all
   * of them or, with filter {"mine": true}, their own; filter user_id narrows to one user.
   */
  async list(user: AuthUser, q: ListQuery): Promise<Page<ChatSessionJson>> {
    const filter = caseListFilter(user, q.filter);
    if (!filter) return new Page('chat-sessions', [], 0, q.offset);
    const { rows, total } = await this.repo.list(q, filter);
    return new Page('chat-sessions', rows.map(toJson), total, q.offset);
  }

  /** Saves the answer, the answered list, the history and step + 1 in one write, then asks, offers a choice, or completes. */
  async answer(user: AuthUser, id: string, dto: AnswerDto): Promise<ChatSessionJson> {
    return this.write(id, user, async (row, seen) => {
      // A repeated request for the answer just recorded changes nothing.
      if (repeatsAnswer(row.answer_details.at(-1), dto)) return null;
      if (row.answered_parameters.includes(dto.parameter_id)) throw staleStep(row);
      if (row.is_completed) throw conflict('This chat session is already completed; start a new one.');
      const pending = row.pending;
      if (!pending) throw conflict('This chat session has no question to answer.');
      if (pending.kind === 'choice') {
        throw validationFailed([
          { field: 'parameter_id', message: 'No question is waiting for an answer: choose one of the recommendations offered' },
        ]);
      }
      const k = await this.published.of(row.rule_set_versions);
      const parameters = await this.parametersFor(k);
      const parameter = parameters.find((p) => p.id === pending.parameter_id) ?? k.parameterById.get(pending.parameter_id);
      if (!parameter) throw staleStep(row);
      if (dto.parameter_id !== pending.parameter_id)
        throw notAsked(
          parameters.some((p) => p.id === dto.parameter_id),
          parameter.display_name,
        );
      const at = new Date();
      // A chat holds no record context: nothing in it is confirmed from a record.
      checkConfirmedFrom(dto, null);
      const detail = recordAnswer(parameter, pending.options, dto, at);
      await checkWithCodes(this.facts, seen, (codes) =>
        checkAgainstAnswers(detail, row.answer_details, codes).then(() => checkObservedAt(parameter, dto, at, codes)),
      );

      const answers: Answers = { ...row.session_data, [parameter.id]: detail.value as AnswerValue };
      // The transcript shows what the clinician chose or typed, never a stand-in value.
      const history = [
        ...row.conversation_history,
        message('answer', detail.label, at, { parameter_id: parameter.id, entered_as: detail.entered_as }),
      ];
      const base = {
        ...row,
        session_data: answers,
        answered_parameters: [...row.answered_parameters, parameter.id],
        answer_details: [...row.answer_details, detail],
        conversation_history: history,
      };
      return this.next(
        k,
        parameters,
        base,
        chatStep(k.rules, parameters, answers, { now: row.created_at, prepared: k.prepared }),
        at,
        seen,
      );
    });
  }

  /** Completes a multiple-match choice with one of the rules offered. */
  async choose(user: AuthUser, id: string, dto: ChoiceDto): Promise<ChatSessionJson> {
    return this.write(id, user, async (row, seen) => {
      // A repeated request for the choice just made changes nothing.
      if (row.matched_rules.length > 1 && row.matched_rules.some((m) => m.selected && m.rule_id === dto.rule_id)) return null;
      if (row.is_completed) throw conflict('This chat session is already completed; start a new one.');
      if (row.pending?.kind !== 'choice') throw conflict('There is no choice to make in this chat session.');
      const offered = row.pending.options.find((o) => o.value === dto.rule_id);
      if (!offered) throw validationFailed([{ field: 'rule_id', message: 'rule_id must be one of the recommendations offered' }]);
      const k = await this.published.of(row.rule_set_versions);
      const parameters = await this.parametersFor(k);
      const step = chatChoose(k.rules, parameters, row.session_data, dto.rule_id, { now: row.created_at, prepared: k.prepared });
      if (!step) throw validationFailed([{ field: 'rule_id', message: 'rule_id must be one of the recommendations offered' }]);
      const at = new Date();
      const history = [...row.conversation_history, message('answer', offered.label, at)];
      return this.next(k, parameters, { ...row, conversation_history: history }, step, at, seen);
    });
  }

  private async next(k: Knowledge, parameters: EngineParameter[], row: Row, step: ChatStep, at: Date, seen: Seen): Promise<Changes> {
    if (step.status === 'question') {
      const q = step.question;
      return {
        ...row,
        conversation_history: [...row.conversation_history, await this.questionMessage(q, parameters, at, seen)],
        pending: { kind: 'question', parameter_id: q.parameter_id, options: withNotAvailable(q.options) },
      };
    }
    const entered = enteredOf(row.answer_details);
    if (step.status === 'choice') {
      const matched = step.matches.map((m) => toMatchedRule(m.finding, k, entered, false));
      // Each button shows what choosing it means: severity, actions and the basis with the answers as entered.
      const options = step.options.flatMap((o) => {
        const m = matched.find((x) => x.rule_id === o.value);
        return m ? [{ label: o.label, value: o.value, severity: m.severity, actions: m.actions, basis: m.basis }] : [];
      });
      return {
        ...row,
        conversation_history: [...row.conversation_history, message('question', step.message, at, { options, rules: matched })],
        pending: { kind: 'choice', options },
        matched_rules: matched,
      };
    }
    // The final message shows every finding in the engine's order (critical, high, then the rest), the chosen one marked.
    const matched = step.matches.map((m) => toMatchedRule(m.finding, k, entered, m.rule.id === step.rule?.id));
    const ruledOut = matched.length === 0 ? toRuledOut(step.ruled_out, k, entered) : [];
    const undetermined = step.undetermined_rules.map((u) => toUndetermined(u, k));
    return {
      ...row,
      conversation_history: [
        ...row.conversation_history,
        message('recommendation', matched.length === 0 ? noFindingText(ruledOut, undetermined.length) : step.message, at, {
          rules: matched,
          undetermined_rules: undetermined,
          ...(matched.length === 0 ? { ruled_out: ruledOut } : {}),
        }),
      ],
      pending: null,
      matched_rules: matched,
      is_completed: true,
      final_recommendations: toActions(step.final_recommendations),
      completed_at: at,
    };
  }

  /**
   * Reads, decides, and writes only if the step is still the one read; a lost race re-reads
   * and decides again, so two answers at once never overwrite each other. `decide` returns null
   * when the request repeats what is already recorded.
   */
  private async write(id: string, user: AuthUser, decide: (row: Row, seen: Seen) => Promise<Changes | null>): Promise<ChatSessionJson> {
    for (let attempt = 1; ; attempt++) {
      const copy = this.written.take(id, user.id);
      if (copy) {
        // Decided on this process's copy: only a write that applies counts; a repeat, a refusal or a lost race is
        // decided again on the stored row.
        const done = await this.tryWrite(copy, decide, true).catch(() => null);
        if (done) return done;
        this.written.drop(id);
      }
      const row = await this.own(id, user);
      const done = await this.tryWrite(row, decide, false);
      if (done) return done;
      if (attempt >= MAX_ATTEMPTS) throw staleStep(row);
    }
  }

  /** Decides on `row` and writes; null when another write (or a knowledge change) got there first. */
  private async tryWrite(
    row: Row,
    decide: (row: Row, seen: Seen) => Promise<Changes | null>,
    copy: boolean,
  ): Promise<ChatSessionJson | null> {
    // Wording and LOINC codes as kept in this process (KnowledgeFacts): the write applies only while they are current.
    const seen = nothingSeen();
    const c = await decide(row, seen);
    if (!c) return copy ? null : toJson(row);
    const { row: written, generation } = await this.repo.apply(row.id, row.current_step, c, guardOf(seen));
    if (written) {
      if (written.is_completed) this.written.drop(row.id);
      else this.written.keep(written);
      return toJson(written);
    }
    if (guardOf(seen) !== null && generation !== seen.generation) this.facts.forget(generation);
    return null;
  }

  private async own(id: string, user: AuthUser): Promise<Row> {
    const row = await this.repo.find(id, user.id);
    if (!row) throw notFound('Chat session');
    return row;
  }

  /** The parameters the rules use; when no rule uses any, every active parameter (docs/product-spec.md section 4). */
  private async parametersFor(k: Knowledge): Promise<EngineParameter[]> {
    return chatQuestionOrder(k.rules, k.parameters).length > 0 ? k.parameters : this.published.activeParameters();
  }

  /** The question in the parameter's wording: stored now (`seen` absent: a start, whose insert has no guard) or kept. */
  private async questionMessage(q: ChatQuestion, parameters: EngineParameter[], at: Date, seen?: Seen): Promise<ChatMessage> {
    const parameter = parameters.find((p) => p.id === q.parameter_id)!;
    const text = seen ? await this.facts.questionText(parameter, seen) : await this.published.questionText(parameter);
    return message('question', text, at, {
      parameter_id: q.parameter_id,
      options: withNotAvailable(q.options),
      ...(q.input ? { input: q.input } : {}),
    });
  }
}

function toJson(r: Row): ChatSessionJson {
  return {
    id: r.id,
    user_id: r.user_id,
    session_data: r.session_data,
    answered_parameters: r.answered_parameters,
    answer_details: r.answer_details ?? [],
    matched_rules: r.matched_rules,
    conversation_history: r.conversation_history,
    current_step: Number(r.current_step),
    is_completed: r.is_completed,
    final_recommendations: r.final_recommendations ?? null,
    pending: r.pending ?? null,
    rule_set_versions: r.rule_set_versions,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    completed_at: iso(r.completed_at),
  };
}
