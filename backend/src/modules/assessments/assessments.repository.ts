import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
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
import { Assessment, type DebugLogEntry, type VersionRef } from './assessment.entity';
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
  id: string;
  user_id: string;
  record_patient: RecordPatientJson | null;
  record_history: RecordHistorySnapshot | null;
  rule_set_versions: VersionRef[];
  debug_log: DebugLogEntry[];
  created_at: Date;
}

/** A parameter's wording columns as stored now, and a fingerprint of its whole row (null: no such parameter). */
export interface WordingSource extends QuestionSource {
  fingerprint: string;
}

/** The write applies only while the next question's parameter row is still the one its wording was taken from. */
export interface WordingGuard {
  parameter_id: string;
  fingerprint: string | null;
}

export interface AnswerWrite extends AssessmentState {
  answers: Answers;
  completed_parameter_ids: string[];
  answer_details: AnswerDetailJson[];
  /** Appended to the stored log. */
  log: DebugLogEntry[];
  at: Date;
  wording: WordingGuard | null;
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
    return debug ? qb.addSelect('a.debug_log', 'debug_log') : qb;
  }

  async insert(a: NewAssessment): Promise<void> {
    await this.db
      .createQueryBuilder()
      .insert()
      .into(Assessment)
      .values({ ...a, updated_at: a.created_at } as QueryDeepPartialEntity<Assessment>)
      .execute();
  }

  /**
   * `ownerId` narrows to one owner's assessment (a PCP's view); null reads any. `history` adds the
   * record's history snapshot (the case detail). Plain SQL: this is on every answer.
   */
  async find(id: string, ownerId: string | null, debug = false, history = false): Promise<AssessmentRow | null> {
    const rows = (await this.db.query(
      `SELECT ${COLUMNS.join(', ')}${debug ? ', a.debug_log AS debug_log' : ''}${history ? ', a.record_history AS record_history' : ''}
         FROM assessments a JOIN users u ON u.id = a.user_id
        WHERE a.id = $1${ownerId ? ' AND a.user_id = $2' : ''}`,
      ownerId ? [id, ownerId] : [id],
    )) as AssessmentRow[];
    return rows[0] ?? null;
  }

  /**
   * Writes the answer only if the assessment is still at `step` (every write moves the step on, so
   * the row is then exactly the one the answer was checked against); false when another write got
   * there first. One statement, plain SQL: this is the answer round trip's only write.
   */
  async applyAnswer(id: string, step: number, w: AnswerWrite): Promise<boolean> {
    const [, affected] = (await this.db.query(
      `UPDATE assessments SET step = step + 1, debug_log = debug_log || $3::jsonb, updated_at = $4,
          current_parameter_id = $5, current_question = $6::jsonb, is_completed = $7, recommendation = $8::jsonb,
          findings = $9::jsonb, undetermined_rules = $10::jsonb, completed_at = $11, answers = $12::jsonb,
          completed_parameter_ids = $13::jsonb, answer_details = $14::jsonb, ruled_out = $17::jsonb
        WHERE id = $1 AND step = $2
          AND ($15::uuid IS NULL OR (SELECT md5(p::text) FROM parameters p WHERE p.id = $15::uuid) IS NOT DISTINCT FROM $16)`,
      [
        id,
        step,
        JSON.stringify(w.log),
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
        w.wording?.parameter_id ?? null,
        w.wording?.fingerprint ?? null,
        jsonb(w.ruled_out),
      ],
    )) as [unknown[], number];
    return affected === 1;
  }

  /** What the question's wording is made of, as stored now; null when the parameter is gone. */
  async wordingSource(parameterId: string): Promise<WordingSource | null> {
    const rows = (await this.db.query(
      `SELECT p.name, p.display_name, p.category, p.data_type, p.units, p.question_override, p.polished_question,
              p.polished_input_hash, md5(p::text) AS fingerprint
         FROM parameters p WHERE p.id = $1`,
      [parameterId],
    )) as WordingSource[];
    return rows[0] ?? null;
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
