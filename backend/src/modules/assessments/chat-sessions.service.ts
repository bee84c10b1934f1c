import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { conflict, DomainError, notFound, validationFailed } from '../../common/errors';
import {
  chatChoose, chatNextQuestion, chatQuestionOrder, chatStep, type Answers, type AnswerValue, type ChatQuestion, type ChatStep, type EngineParameter,
} from '../../engine';
import type { AuthUser } from '../auth/auth-user';
import { iso, sameJson } from '../parameters/api-helpers';
import { answerLabel, answerProblem } from './answer-check';
import type { ActionJson, VersionRef } from './assessment.entity';
import type { ChoiceDto, AnswerDto } from './assessments.dto';
import type { ChatMessage, ChatPending, MatchedRule } from './chat-session.entity';
import { jsonb, toActions, toMatchedRule } from './outcome';
import { PublishedRules, type Knowledge } from './published-rules';

export interface ChatSessionJson {
  id: string;
  user_id: string;
  session_data: Answers;
  answered_parameters: string[];
  matched_rules: MatchedRule[];
  conversation_history: ChatMessage[];
  current_step: number;
  is_completed: boolean;
  final_recommendations: ActionJson[] | null;
  pending: ChatPending | null;
  rule_set_versions: VersionRef[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

type Row = Omit<ChatSessionJson, 'created_at' | 'updated_at' | 'completed_at'> & { created_at: Date; updated_at: Date; completed_at: Date | null };

/** The columns an answer changes; the rest of the row stays as it was. */
type Changes = Pick<Row, 'session_data' | 'answered_parameters' | 'matched_rules' | 'conversation_history' | 'is_completed' | 'final_recommendations' | 'pending' | 'completed_at'>;

const COLUMNS = `id, user_id, session_data, answered_parameters, matched_rules, conversation_history, current_step, is_completed,
  final_recommendations, pending, rule_set_versions, created_at, updated_at, completed_at`;
const MAX_ATTEMPTS = 5;

function staleStep(row: Row): DomainError {
  return new DomainError('stale_step', 'This conversation has moved on since that question was shown; reload it and answer the current question.', {
    current_step: row.current_step, pending: row.pending, is_completed: row.is_completed,
  });
}

function message(type: ChatMessage['type'], content: string, at: Date, extra: Partial<ChatMessage> = {}): ChatMessage {
  return { id: randomUUID(), type, content, ...extra, timestamp: at.toISOString() };
}

/** The Diagnostic Assistant (spec sections 3, 4 and 7): a chatbot_sessions row per conversation, only its owner may reach it. */
@Injectable()
export class ChatSessionsService {
  constructor(@InjectDataSource() private readonly db: DataSource, private readonly published: PublishedRules) {}

  /**
   * Writes the row (empty data, step 1, not completed) and asks the first question. With no
   * question to ask, pending stays null: the page says no questions are configured.
   */
  async start(user: AuthUser): Promise<ChatSessionJson> {
    const k = await this.published.current();
    const parameters = await this.parametersFor(k);
    const at = new Date();
    const question = chatNextQuestion(k.rules, parameters, {});
    const history = question ? [await this.questionMessage(question, parameters, at)] : [];
    const pending: ChatPending | null = question ? { kind: 'question', parameter_id: question.parameter_id, options: question.options } : null;
    const [row] = await this.db.query(
      `INSERT INTO chatbot_sessions (user_id, rule_set_versions, conversation_history, pending, created_at, updated_at)
       VALUES ($1, $2::jsonb, $3::jsonb, $4::jsonb, $5, $5) RETURNING ${COLUMNS}`,
      [user.id, jsonb(k.versions), jsonb(history), jsonb(pending), at],
    );
    return toJson(row);
  }

  async get(user: AuthUser, id: string): Promise<ChatSessionJson> {
    return toJson(await this.own(id, user));
  }

  /** Saves the answer, the answered list, the history and step + 1 in one write, then asks, offers a choice, or completes. */
  async answer(user: AuthUser, id: string, dto: AnswerDto): Promise<ChatSessionJson> {
    return this.write(id, user, async (row) => {
      const last = row.answered_parameters.at(-1);
      // A repeated request for the answer just recorded changes nothing.
      if (last === dto.parameter_id && sameJson(row.session_data[last], dto.value)) return null;
      if (row.answered_parameters.includes(dto.parameter_id)) throw staleStep(row);
      if (row.is_completed) throw conflict('This chat session is already completed; start a new one.');
      const pending = row.pending;
      if (!pending) throw conflict('This chat session has no question to answer.');
      if (pending.kind === 'choice') {
        throw validationFailed([{ field: 'parameter_id', message: 'No question is waiting for an answer: choose one of the recommendations offered' }]);
      }
      if (dto.parameter_id !== pending.parameter_id) throw validationFailed([{ field: 'parameter_id', message: 'This parameter was not asked' }]);
      const k = await this.published.of(row.rule_set_versions);
      const parameters = await this.parametersFor(k);
      const parameter = parameters.find((p) => p.id === pending.parameter_id) ?? k.parameterById.get(pending.parameter_id);
      if (!parameter) throw staleStep(row);
      const problem = answerProblem(parameter, pending.options, dto.value);
      if (problem) throw validationFailed([{ field: 'value', message: problem }]);

      const at = new Date();
      const answers: Answers = { ...row.session_data, [parameter.id]: dto.value as AnswerValue };
      const history = [...row.conversation_history, message('answer', answerLabel(pending.options, dto.value), at, { parameter_id: parameter.id })];
      const base = { ...row, session_data: answers, answered_parameters: [...row.answered_parameters, parameter.id], conversation_history: history };
      return this.next(k, parameters, base, chatStep(k.rules, parameters, answers, { now: row.created_at }), at);
    });
  }

  /** Completes a multiple-match choice with one of the rules offered. */
  async choose(user: AuthUser, id: string, dto: ChoiceDto): Promise<ChatSessionJson> {
    return this.write(id, user, async (row) => {
      // A repeated request for the choice just made changes nothing.
      if (row.matched_rules.length > 1 && row.matched_rules.some((m) => m.selected && m.rule_id === dto.rule_id)) return null;
      if (row.is_completed) throw conflict('This chat session is already completed; start a new one.');
      if (row.pending?.kind !== 'choice') throw conflict('There is no choice to make in this chat session.');
      const offered = row.pending.options.find((o) => o.value === dto.rule_id);
      if (!offered) throw validationFailed([{ field: 'rule_id', message: 'rule_id must be one of the recommendations offered' }]);
      const k = await this.published.of(row.rule_set_versions);
      const parameters = await this.parametersFor(k);
      const step = chatChoose(k.rules, parameters, row.session_data, dto.rule_id, { now: row.created_at });
      if (!step) throw validationFailed([{ field: 'rule_id', message: 'rule_id must be one of the recommendations offered' }]);
      const at = new Date();
      const history = [...row.conversation_history, message('answer', offered.label, at)];
      return this.next(k, parameters, { ...row, conversation_history: history }, step, at);
    });
  }

  private async next(k: Knowledge, parameters: EngineParameter[], row: Row, step: ChatStep, at: Date): Promise<Changes> {
    if (step.status === 'question') {
      const q = step.question;
      return {
        ...row,
        conversation_history: [...row.conversation_history, await this.questionMessage(q, parameters, at)],
        pending: { kind: 'question', parameter_id: q.parameter_id, options: q.options },
      };
    }
    if (step.status === 'choice') {
      return {
        ...row,
        conversation_history: [...row.conversation_history, message('question', step.message, at, { options: step.options })],
        pending: { kind: 'choice', options: step.options },
        matched_rules: step.matches.map((m) => toMatchedRule(m.rule, m.trace, k, false)),
      };
    }
    return {
      ...row,
      conversation_history: [...row.conversation_history, message('recommendation', step.message, at)],
      pending: null,
      matched_rules: step.matches.map((m) => toMatchedRule(m.rule, m.trace, k, m.rule.id === step.rule?.id)),
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
  private async write(id: string, user: AuthUser, decide: (row: Row) => Promise<Changes | null>): Promise<ChatSessionJson> {
    for (let attempt = 1; ; attempt++) {
      const row = await this.own(id, user);
      const c = await decide(row);
      if (!c) return toJson(row);
      const [rows] = await this.db.query(
        `UPDATE chatbot_sessions SET session_data = $3::jsonb, answered_parameters = $4::jsonb, matched_rules = $5::jsonb,
           conversation_history = $6::jsonb, current_step = current_step + 1, is_completed = $7, final_recommendations = $8::jsonb,
           pending = $9::jsonb, completed_at = $10, updated_at = now()
         WHERE id = $1 AND current_step = $2 RETURNING ${COLUMNS}`,
        [id, row.current_step, jsonb(c.session_data), jsonb(c.answered_parameters), jsonb(c.matched_rules), jsonb(c.conversation_history),
          c.is_completed, jsonb(c.final_recommendations), jsonb(c.pending), c.completed_at],
      );
      if (rows.length) return toJson(rows[0]);
      if (attempt >= MAX_ATTEMPTS) throw staleStep(row);
    }
  }

  private async own(id: string, user: AuthUser): Promise<Row> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM chatbot_sessions WHERE id = $1 AND user_id = $2`, [id, user.id]);
    if (!row) throw notFound('Chat session');
    return row;
  }

  /** The parameters the rules use; when no rule uses any, every active parameter (spec section 4). */
  private async parametersFor(k: Knowledge): Promise<EngineParameter[]> {
    return chatQuestionOrder(k.rules, k.parameters).length > 0 ? k.parameters : this.published.activeParameters();
  }

  private async questionMessage(q: ChatQuestion, parameters: EngineParameter[], at: Date): Promise<ChatMessage> {
    const parameter = parameters.find((p) => p.id === q.parameter_id)!;
    return message('question', await this.published.questionText(parameter), at, { parameter_id: q.parameter_id, options: q.options });
  }
}

function toJson(r: Row): ChatSessionJson {
  return {
    id: r.id,
    user_id: r.user_id,
    session_data: r.session_data,
    answered_parameters: r.answered_parameters,
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
