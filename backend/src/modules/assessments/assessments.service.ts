import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { conflict, DomainError, notFound, validationFailed } from '../../common/errors';
import { idFilter, ListQuery, Page, UUID } from '../../common/pagination';
import { clinicalStart, clinicalStep, type Answers, type AnswerValue, type ClinicalStep, type LogEntry, type UndeterminedRule } from '../../engine';
import type { AuthUser } from '../auth/auth-user';
import { assertFilterKeys, boolFilter, iso, sameJson } from '../parameters/api-helpers';
import { answerLabel, answerProblem } from './answer-check';
import type { AnswerDetail, AskedQuestion, DebugLogEntry, RecommendationJson, VersionRef } from './assessment.entity';
import type { AnswerDto } from './assessments.dto';
import { jsonb, logEntries, toRecommendation } from './outcome';
import { PublishedRules, type Knowledge } from './published-rules';

export interface AssessmentJson {
  id: string;
  user_id: string;
  user_email: string;
  is_completed: boolean;
  step: number;
  current_parameter_id: string | null;
  current_question: AskedQuestion | null;
  answers: Answers;
  completed_parameter_ids: string[];
  answer_details: AnswerDetail[];
  recommendation: RecommendationJson | null;
  /** Rules that could not be decided when the assessment ended (an answer was unknown). */
  undetermined_rules: UndeterminedRule[];
  rule_set_versions: VersionRef[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  debug_log?: DebugLogEntry[];
}

export interface AssessmentSummary {
  total: number;
  completed: number;
  with_recommendation: number;
  active_rules: number;
}

type Row = Omit<AssessmentJson, 'created_at' | 'updated_at' | 'completed_at'> & { created_at: Date; updated_at: Date; completed_at: Date | null };

/** Everything but the debug log, which only `?debug=true` reads. */
const COLUMNS = [
  'a.id AS id', 'a.user_id AS user_id', 'u.email AS user_email', 'a.is_completed AS is_completed', 'a.step AS step',
  'a.current_parameter_id AS current_parameter_id', 'a.current_question AS current_question', 'a.answers AS answers',
  'a.completed_parameter_ids AS completed_parameter_ids', 'a.answer_details AS answer_details', 'a.recommendation AS recommendation',
  'a.undetermined_rules AS undetermined_rules', 'a.rule_set_versions AS rule_set_versions', 'a.created_at AS created_at',
  'a.updated_at AS updated_at', 'a.completed_at AS completed_at',
];
const select = (debug = false) =>
  `SELECT ${COLUMNS.join(', ')}${debug ? ', a.debug_log AS debug_log' : ''} FROM assessments a JOIN users u ON u.id = a.user_id`;

const SORT: Record<string, string> = { created_at: 'a.created_at', updated_at: 'a.updated_at', completed_at: 'a.completed_at', step: 'a.step', id: 'a.id' };
export const ASSESSMENT_SORTABLE = Object.keys(SORT);
const FILTERS = ['mine', 'user_id', 'is_completed', 'id'];

/** Optimistic writes: a lost race re-reads and re-checks, so each answer applies to the state it was checked against. */
const MAX_ATTEMPTS = 5;

export const isAdministrator = (user: AuthUser) => user.role === 'admin' || user.role === 'super_admin';


function staleStep(row: Row): DomainError {
  return new DomainError('stale_step', 'This assessment has moved on since that question was shown; reload it and answer the current question.', {
    step: row.step, current_parameter_id: row.current_parameter_id, is_completed: row.is_completed,
  });
}

/** What a step of the engine leaves in the row. */
interface Outcome {
  current_parameter_id: string | null;
  current_question: AskedQuestion | null;
  is_completed: boolean;
  recommendation: RecommendationJson | null;
  undetermined_rules: UndeterminedRule[];
  completed_at: Date | null;
}

@Injectable()
export class AssessmentsService {
  constructor(@InjectDataSource() private readonly db: DataSource, private readonly published: PublishedRules) {}

  /** Loads the active rules of the published, active rule sets and asks the first question (or completes at once). */
  async start(user: AuthUser): Promise<AssessmentJson> {
    const k = await this.published.current();
    const at = new Date();
    const step = clinicalStart(k.rules, k.parameters, { now: at });
    const outcome = await this.outcome(k, step, at);
    const loaded: LogEntry = {
      type: 'info',
      message: `Loaded ${k.rules.length} active rule${k.rules.length === 1 ? '' : 's'} from ${k.versions.length} published rule set${k.versions.length === 1 ? '' : 's'}`,
      data: { rule_set_versions: k.versions },
    };
    const [row] = await this.db.query(
      `INSERT INTO assessments (user_id, rule_set_versions, current_parameter_id, current_question, is_completed, recommendation,
         undetermined_rules, debug_log, created_at, updated_at, completed_at)
       VALUES ($1, $2::jsonb, $3, $4::jsonb, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9, $9, $10)
       RETURNING id`,
      [user.id, jsonb(k.versions), outcome.current_parameter_id, jsonb(outcome.current_question), outcome.is_completed,
        jsonb(outcome.recommendation), jsonb(outcome.undetermined_rules), jsonb(logEntries([loaded, ...step.log], at)), at, outcome.completed_at],
    );
    return toJson({
      id: row.id, user_id: user.id, user_email: user.email, step: 1, answers: {}, completed_parameter_ids: [], answer_details: [],
      rule_set_versions: k.versions, created_at: at, updated_at: at, ...outcome,
    });
  }

  /**
   * Checks the answer against the question asked, stores it and evaluates the rules. Two answers
   * at once never overwrite each other: the update applies only to the step that was checked.
   */
  async answer(user: AuthUser, id: string, dto: AnswerDto): Promise<AssessmentJson> {
    for (let attempt = 1; ; attempt++) {
      const row = await this.own(id, user);
      const last = row.completed_parameter_ids.at(-1);
      // A repeated request (double click, retry) for the answer just recorded changes nothing.
      if (last === dto.parameter_id && sameJson(row.answers[last], dto.value) && (dto.step === undefined || dto.step === row.step - 1)) {
        return toJson(row);
      }
      if (row.completed_parameter_ids.includes(dto.parameter_id)) throw staleStep(row);
      if (row.is_completed) throw conflict('This assessment is already completed; start a new one.', { step: row.step });
      if (dto.step !== undefined && dto.step !== row.step) throw staleStep(row);
      const question = row.current_question!;
      if (dto.parameter_id !== question.parameter_id) {
        throw validationFailed([{ field: 'parameter_id', message: `This parameter was not asked; the current question is about ${question.display_name}` }]);
      }
      const k = await this.published.of(row.rule_set_versions);
      const parameter = k.parameterById.get(question.parameter_id)!;
      const problem = answerProblem(parameter, question.options, dto.value);
      if (problem) throw validationFailed([{ field: 'value', message: problem }]);

      const at = new Date();
      const answers: Answers = { ...row.answers, [question.parameter_id]: dto.value as AnswerValue };
      const detail: AnswerDetail = {
        parameter_id: parameter.id, name: parameter.name, display_name: parameter.display_name, units: parameter.units ?? null,
        value: dto.value, label: answerLabel(question.options, dto.value), answered_at: at.toISOString(),
      };
      // The reference time is the assessment's start, so replaying its answers gives the same result.
      const step = clinicalStep(k.rules, k.parameters, answers, { now: row.created_at });
      const outcome = await this.outcome(k, step, at);
      const log = logEntries([{ type: 'info', message: `Answer: ${parameter.display_name} = ${detail.label}`, data: { parameter_id: parameter.id, value: dto.value } }, ...step.log], at);
      const [, updated] = await this.db.query(
        `UPDATE assessments SET answers = $3::jsonb, completed_parameter_ids = completed_parameter_ids || $4::jsonb,
           answer_details = answer_details || $5::jsonb, current_parameter_id = $6, current_question = $7::jsonb, step = step + 1,
           is_completed = $8, recommendation = $9::jsonb, undetermined_rules = $10::jsonb, completed_at = $11,
           debug_log = debug_log || $12::jsonb, updated_at = $13
         WHERE id = $1 AND step = $2`,
        [id, row.step, jsonb(answers), jsonb([parameter.id]), jsonb([detail]), outcome.current_parameter_id, jsonb(outcome.current_question),
          outcome.is_completed, jsonb(outcome.recommendation), jsonb(outcome.undetermined_rules), outcome.completed_at, jsonb(log), at],
      );
      if (updated === 1) {
        return toJson({
          ...row, ...outcome, answers, step: row.step + 1, updated_at: at,
          completed_parameter_ids: [...row.completed_parameter_ids, parameter.id], answer_details: [...row.answer_details, detail],
        });
      }
      if (attempt >= MAX_ATTEMPTS) throw staleStep(row);
    }
  }

  /** A PCP sees their own assessments; an administrator sees every one. */
  async get(user: AuthUser, id: string, debug: boolean): Promise<AssessmentJson> {
    const [row] = await this.db.query(
      `${select(debug)} WHERE a.id = $1 ${isAdministrator(user) ? '' : 'AND a.user_id = $2'}`,
      isAdministrator(user) ? [id] : [id, user.id],
    );
    if (!row) throw notFound('Assessment');
    return toJson(row);
  }

  /**
   * Case history, newest first. A PCP gets their own; an administrator gets all, or their own
   * with filter {"mine": true}; filter user_id narrows to one user.
   */
  async list(user: AuthUser, q: ListQuery): Promise<Page<AssessmentJson>> {
    const f = q.filter;
    assertFilterKeys(f, FILTERS);
    const qb = this.db.createQueryBuilder().from('assessments', 'a').innerJoin('users', 'u', 'u.id = a.user_id').select(COLUMNS);
    if (!isAdministrator(user) || boolFilter(f, 'mine')) qb.andWhere('a.user_id = :me', { me: user.id });
    if (f.user_id !== undefined) {
      if (typeof f.user_id !== 'string' || !UUID.test(f.user_id)) throw validationFailed([{ field: 'filter.user_id', message: 'filter.user_id must be a user id' }]);
      qb.andWhere('a.user_id = :userId', { userId: f.user_id });
    }
    const completed = boolFilter(f, 'is_completed');
    if (completed !== undefined) qb.andWhere('a.is_completed = :completed', { completed });
    const ids = idFilter(f);
    if (ids) qb.andWhere('a.id IN (:...ids)', { ids });
    const total = await qb.clone().getCount();
    const rows = await qb.orderBy(SORT[q.sort.field], q.sort.order, 'NULLS LAST').addOrderBy('a.id', q.sort.order).offset(q.offset).limit(q.limit).getRawMany();
    return new Page('assessments', rows.map(toJson), total, q.offset);
  }

  /** The caller's own figures for the PCP dashboard, and the rules a new assessment would use. */
  async summary(user: AuthUser): Promise<AssessmentSummary> {
    const [[row], k] = await Promise.all([
      this.db.query(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE is_completed)::int AS completed,
                count(*) FILTER (WHERE recommendation IS NOT NULL)::int AS with_recommendation
           FROM assessments WHERE user_id = $1`,
        [user.id],
      ),
      this.published.current(),
    ]);
    return { total: row.total, completed: row.completed, with_recommendation: row.with_recommendation, active_rules: k.rules.length };
  }

  /** Only the owner may answer, administrators included. */
  private async own(id: string, user: AuthUser): Promise<Row> {
    const [row] = await this.db.query(`${select()} WHERE a.id = $1 AND a.user_id = $2`, [id, user.id]);
    if (!row) throw notFound('Assessment');
    return row;
  }

  private async outcome(k: Knowledge, step: ClinicalStep, at: Date): Promise<Outcome> {
    if (step.status === 'question') {
      const p = k.parameterById.get(step.parameter_id)!;
      return {
        current_parameter_id: p.id,
        current_question: {
          parameter_id: p.id, name: p.name, display_name: p.display_name, text: await this.published.questionText(p),
          units: p.units ?? null, options: step.options,
        },
        is_completed: false, recommendation: null, undetermined_rules: [], completed_at: null,
      };
    }
    return {
      current_parameter_id: null, current_question: null, is_completed: true,
      recommendation: step.recommendation ? toRecommendation(step.recommendation, k) : null,
      undetermined_rules: step.undetermined_rules, completed_at: at,
    };
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
    undetermined_rules: r.undetermined_rules,
    rule_set_versions: r.rule_set_versions,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    completed_at: iso(r.completed_at),
    ...(r.debug_log ? { debug_log: r.debug_log } : {}),
  };
}
