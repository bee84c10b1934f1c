import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type {
  AnswerDetailJson,
  AssessmentJson,
  FindingJson,
  QuestionJson,
  RecordPatientJson,
  RuledOutJson,
  UndeterminedRuleJson,
} from '@cds/contracts';
import type { Stored } from '../../common/stored';
import type { Answers } from '@cds/engine';
import type { ListQuery } from '../../common/pagination';
import type { CaseListFilter } from './case-history';
import type { QuestionSource } from '../polish';
import type { DebugLogEntry, VersionRef } from './assessment.entity';
import type { RecordHistorySnapshot } from './record-context';

/** An assessment as read (with its owner's email); the debug log and the record's history only when asked for. */
export type AssessmentRow = Stored<Omit<AssessmentJson, 'histories'>, 'created_at' | 'updated_at' | 'completed_at'> & {
  record_history?: RecordHistorySnapshot | null;
};

/** Where the engine left the assessment after a step. */
export interface AssessmentState {
  current_parameter_id: string | null;
  current_question: QuestionJson | null;
  is_completed: boolean;
  recommendation: FindingJson | null;
  findings: FindingJson[];
  undetermined_rules: UndeterminedRuleJson[];
  ruled_out: RuledOutJson[];
  completed_at: Date | null;
}

export interface NewAssessment extends AssessmentState {
  /** As in AnswerWrite: the insert applies only while this knowledge generation is stored. */
  generation: number | null;
  id: string;
  user_id: string;
  record_patient: RecordPatientJson | null;
  record_history: RecordHistorySnapshot | null;
  rule_set_versions: VersionRef[];
  debug_log: DebugLogEntry[];
  created_at: Date;
}

/** A parameter's wording columns as stored now (null: no such parameter), and the knowledge generation they were read at. */
export interface WordingRead {
  generation: number;
  source: QuestionSource | null;
}

/** What a write reports: whether it applied, and the knowledge generation stored now. */
export interface Written {
  written: boolean;
  generation: number;
}

export interface AnswerWrite extends AssessmentState {
  answers: Answers;
  completed_parameter_ids: string[];
  answer_details: AnswerDetailJson[];
  /** This answer's evaluation log: a row of its own (assessment_log), never a rewrite of the log so far. */
  log: DebugLogEntry[];
  at: Date;
  /** The knowledge generation the decision's kept facts were read at (null: it used none). */
  generation: number | null;
}

const COLUMNS = [
  'a.id AS id',
  'a.user_id AS user_id',
  'u.email AS user_email',
  'a.is_completed AS is_completed',
  'a.step AS step',
  'a.current_parameter_id AS current_parameter_id',
  'a.current_question AS current_question',
  'a.answers AS answers',
  'a.completed_parameter_ids AS completed_parameter_ids',
  'a.answer_details AS answer_details',
  'a.recommendation AS recommendation',
  'a.findings AS findings',
  'a.undetermined_rules AS undetermined_rules',
  'a.ruled_out AS ruled_out',
  'a.rule_set_versions AS rule_set_versions',
  'a.created_at AS created_at',
  'a.updated_at AS updated_at',
  'a.completed_at AS completed_at',
  'a.record_patient AS patient',
];

/** The whole evaluation log in order: the row's own (assessments started before assessment_log), then step 0 (the start), 1, 2 … */
const DEBUG_LOG = `a.debug_log || coalesce((SELECT jsonb_agg(e ORDER BY l.step, n) FROM assessment_log l,
     jsonb_array_elements(l.entries) WITH ORDINALITY AS x(e, n) WHERE l.assessment_id = a.id), '[]'::jsonb)`;

/** The stored knowledge generation, as a subquery. */
const GENERATION = `(SELECT generation FROM knowledge_generation WHERE id = 1)`;

/** A jsonb parameter: SQL NULL for null (JSON.stringify would store the JSON value null). */
function jsonb(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}

const SORT: Record<string, string> = {
  created_at: 'a.created_at',
  updated_at: 'a.updated_at',
  completed_at: 'a.completed_at',
  step: 'a.step',
  id: 'a.id',
};
export const ASSESSMENT_SORTABLE = Object.keys(SORT);

/** The only SQL of clinical assessments. */
@Injectable()
export class AssessmentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private select(debug: boolean) {
    const qb = this.db.createQueryBuilder().from('assessments', 'a').innerJoin('users', 'u', 'u.id = a.user_id').select(COLUMNS);
    return debug ? qb.addSelect(DEBUG_LOG, 'debug_log') : qb;
  }

  /**
   * Inserts the assessment if the knowledge generation is still `a.generation`, its start's log as step 0 of
   * assessment_log (so the row that every answer rewrites carries no log). One statement.
   */
  async insert(a: NewAssessment): Promise<Written> {
    const rows = (await this.db.query(
      `WITH g AS (SELECT ${GENERATION} AS generation),
            i AS (INSERT INTO assessments (id, user_id, rule_set_versions, current_parameter_id, current_question, is_completed,
                    recommendation, findings, undetermined_rules, ruled_out, completed_at, record_patient, record_history,
                    created_at, updated_at)
                  SELECT $1, $2, $3::jsonb, $4, $5::jsonb, $6, $7::jsonb, $8::jsonb, $9::jsonb, $10::jsonb, $11,
                         $13::jsonb, $14::jsonb, $15, $15
                   WHERE $16::bigint IS NULL OR (SELECT generation FROM g) = $16::bigint
                  RETURNING id),
            l AS (INSERT INTO assessment_log (assessment_id, step, entries) SELECT id, 0, $12::jsonb FROM i)
       SELECT (SELECT count(*) FROM i)::int AS written, (SELECT generation FROM g) AS generation`,
      [
        a.id,
        a.user_id,
        jsonb(a.rule_set_versions),
        a.current_parameter_id,
        jsonb(a.current_question),
        a.is_completed,
        jsonb(a.recommendation),
        jsonb(a.findings),
        jsonb(a.undetermined_rules),
        jsonb(a.ruled_out),
        a.completed_at,
        jsonb(a.debug_log),
        jsonb(a.record_patient),
        jsonb(a.record_history),
        a.created_at,
        a.generation,
      ],
    )) as { written: number; generation: string }[];
    return { written: rows[0].written === 1, generation: Number(rows[0].generation) };
  }

  /**
   * `ownerId` narrows to one owner's assessment (a PCP's view); null reads any. `history` adds the
   * record's history snapshot (the case detail). Plain SQL: this is on every answer.
   */
  async find(id: string, ownerId: string | null, debug = false, history = false): Promise<AssessmentRow | null> {
    const rows = (await this.db.query(
      `SELECT ${COLUMNS.join(', ')}${debug ? `, ${DEBUG_LOG} AS debug_log` : ''}${history ? ', a.record_history AS record_history' : ''}
         FROM assessments a JOIN users u ON u.id = a.user_id
        WHERE a.id = $1${ownerId ? ' AND a.user_id = $2' : ''}`,
      ownerId ? [id, ownerId] : [id],
    )) as AssessmentRow[];
    return rows[0] ?? null;
  }

  /**
   * Writes the answer only if the assessment is still at `step` (every write moves the step on, so
   * the row is then exactly the one the answer was checked against) and the knowledge generation is
   * still the one the decision's kept facts were read at; appends the answer's log as a row of its own.
   * One statement: the answer round trip's only one.
   */
  async applyAnswer(id: string, step: number, w: AnswerWrite): Promise<Written> {
    const rows = (await this.db.query(
      `WITH g AS (SELECT ${GENERATION} AS generation),
            u AS (UPDATE assessments SET step = step + 1, updated_at = $3,
                    current_parameter_id = $4, current_question = $5::jsonb, is_completed = $6, recommendation = $7::jsonb,
                    findings = $8::jsonb, undetermined_rules = $9::jsonb, completed_at = $10, answers = $11::jsonb,
                    completed_parameter_ids = $12::jsonb, answer_details = $13::jsonb, ruled_out = $14::jsonb
                   WHERE id = $1 AND step = $2 AND ($15::bigint IS NULL OR (SELECT generation FROM g) = $15::bigint)
                  RETURNING id),
            l AS (INSERT INTO assessment_log (assessment_id, step, entries) SELECT id, $2, $16::jsonb FROM u)
       SELECT (SELECT count(*) FROM u)::int AS written, (SELECT generation FROM g) AS generation`,
      [
        id,
        step,
        w.at,
        w.current_parameter_id,
        jsonb(w.current_question),
        w.is_completed,
        jsonb(w.recommendation),
        jsonb(w.findings),
        jsonb(w.undetermined_rules),
        w.completed_at,
        jsonb(w.answers),
        jsonb(w.completed_parameter_ids),
        jsonb(w.answer_details),
        jsonb(w.ruled_out),
        w.generation,
        JSON.stringify(w.log),
      ],
    )) as { written: number; generation: string }[];
    return { written: rows[0].written === 1, generation: Number(rows[0].generation) };
  }

  /** The knowledge generation stored now. */
  async knowledgeGeneration(): Promise<number> {
    const rows = (await this.db.query(`SELECT ${GENERATION} AS generation`)) as { generation: string }[];
    return Number(rows[0].generation);
  }

  /** What the question's wording is made of, as stored now (null when the parameter is gone), with the generation. */
  async wordingSource(parameterId: string): Promise<WordingRead> {
    const rows = (await this.db.query(
      `SELECT g.generation, p.id, p.name, p.display_name, p.category, p.data_type, p.units, p.question_override,
              p.polished_question, p.polished_input_hash
         FROM knowledge_generation g LEFT JOIN parameters p ON p.id = $1
        WHERE g.id = 1`,
      [parameterId],
    )) as (QuestionSource & { generation: string; id: string | null })[];
    const { generation, id, ...source } = rows[0];
    return { generation: Number(generation), source: id === null ? null : source };
  }

  /** Every parameter's LOINC code (those with one), with the generation. */
  async loincCodes(): Promise<{ generation: number; codes: Record<string, string> }> {
    const rows = (await this.db.query(
      `SELECT g.generation, coalesce((SELECT json_object_agg(p.id, p.loinc_code) FROM parameters p WHERE p.loinc_code IS NOT NULL), '{}'::json) AS codes
         FROM knowledge_generation g WHERE g.id = 1`,
    )) as { generation: string; codes: Record<string, string> }[];
    return { generation: Number(rows[0].generation), codes: rows[0].codes };
  }

  async list(q: ListQuery, f: CaseListFilter): Promise<{ rows: AssessmentRow[]; total: number }> {
    const qb = this.select(false);
    if (f.user_id) qb.andWhere('a.user_id = :userId', { userId: f.user_id });
    if (f.is_completed !== undefined) qb.andWhere('a.is_completed = :completed', { completed: f.is_completed });
    if (f.ids) qb.andWhere('a.id IN (:...ids)', { ids: f.ids });
    const total = await qb.clone().getCount();
    const rows = await qb
      .orderBy(SORT[q.sort.field], q.sort.order, 'NULLS LAST')
      .addOrderBy('a.id', q.sort.order)
      .offset(q.offset)
      .limit(q.limit)
      .getRawMany<AssessmentRow>();
    return { rows, total };
  }

  async countsFor(userId: string): Promise<{ total: number; completed: number; with_recommendation: number }> {
    const row = await this.db
      .createQueryBuilder()
      .from('assessments', 'a')
      .select('count(*)::int', 'total')
      .addSelect('count(*) FILTER (WHERE a.is_completed)::int', 'completed')
      .addSelect('count(*) FILTER (WHERE a.recommendation IS NOT NULL)::int', 'with_recommendation')
      .where('a.user_id = :userId', { userId })
      .getRawOne<{ total: number; completed: number; with_recommendation: number }>();
    return row!;
  }
}
