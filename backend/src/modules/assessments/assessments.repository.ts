import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
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
import { Batched } from '../../database/batched';
import { preparedQuery } from '../../database/prepared';
import type { Answers } from '@cds/engine';
import type { ListQuery } from '../../common/pagination';
import type { CaseListFilter } from './case-history';
import { loincCodesOf, parametersByIds } from '../parameters';
import type { QuestionSource } from '../polish';
import { userLabels } from '../users';
import { Assessment, type DebugLogEntry, type VersionRef } from './assessment.entity';
import type { RecordHistorySnapshot } from './record-context';

/** An assessment as read (with its owner's email); the debug log and the record's history only when asked for. */
export type AssessmentRow = Stored<Omit<AssessmentJson, 'histories'>, 'created_at' | 'updated_at' | 'completed_at'> & {
  record_history?: RecordHistorySnapshot | null;
};

/** The row as stored: its owner's e-mail is the users module's (the caller's own, or `ownerEmail`). */
export type StoredAssessmentRow = Omit<AssessmentRow, 'user_email'>;

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

/** The state of an assessment waiting for the answer to `question`. */
export function awaitingAnswer(current_parameter_id: string, current_question: QuestionJson | null): AssessmentState {
  return {
    current_parameter_id,
    current_question,
    is_completed: false,
    recommendation: null,
    findings: [],
    undetermined_rules: [],
    ruled_out: [],
    completed_at: null,
  };
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
  /**
   * This answer only: the statement appends it to the stored answers, completed ids and details in SQL (the step guard
   * makes the stored row the one it was checked against), so the maps so far are neither sent nor parsed again.
   */
  parameter_id: string;
  detail: AnswerDetailJson;
  /** This answer's evaluation log: a row of its own (assessment_log), never a rewrite of the log so far. */
  log: DebugLogEntry[];
  at: Date;
  /** The knowledge generation the decision's kept facts were read at (null: it used none). */
  generation: number | null;
}

const COLUMNS = [
  'a.id AS id',
  'a.user_id AS user_id',
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
    const qb = this.db.createQueryBuilder().from(Assessment, 'a').select(COLUMNS);
    return debug ? qb.addSelect(DEBUG_LOG, 'debug_log') : qb;
  }

  /** Starts that arrive while others are being written go in one statement (see Batched). */
  private readonly starts = new Batched<NewAssessment, Written>((all) => this.insertAll(all));
  /** Answers likewise: one statement, one commit, for the answers that arrived while the last ones were written. */
  private readonly answers = new Batched<AnswerWrite & { id: string; step: number }, Written>((all) => this.applyAll(all));

  /**
   * Inserts the assessment if the knowledge generation is still `a.generation`, its start's log as step 0 of
   * assessment_log (so the row that every answer rewrites carries no log).
   */
  insert(a: NewAssessment): Promise<Written> {
    return this.starts.submit(a);
  }

  /** Several starts in one statement, prepared once per connection on PostgreSQL; the outcome of each, in order. */
  private async insertAll(all: NewAssessment[]): Promise<Written[]> {
    const rows = await preparedQuery<{ written: string[] | null; generation: string }>(
      this.db,
      'assessment_starts',
      `WITH g AS (SELECT ${GENERATION} AS generation),
            v AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, user_id uuid, rule_set_versions jsonb,
                    current_parameter_id uuid, current_question jsonb, is_completed boolean, recommendation jsonb,
                    findings jsonb, undetermined_rules jsonb, ruled_out jsonb, completed_at timestamptz, debug_log jsonb,
                    record_patient jsonb, record_history jsonb, created_at timestamptz, generation bigint)),
            i AS (INSERT INTO assessments (id, user_id, rule_set_versions, current_parameter_id, current_question, is_completed,
                    recommendation, findings, undetermined_rules, ruled_out, completed_at, record_patient, record_history,
                    created_at, updated_at)
                  SELECT id, user_id, rule_set_versions, current_parameter_id, current_question, is_completed, recommendation,
                         findings, undetermined_rules, ruled_out, completed_at, record_patient, record_history, created_at, created_at
                    FROM v
                   WHERE v.generation IS NULL OR (SELECT generation FROM g) = v.generation
                  RETURNING id),
            l AS (INSERT INTO assessment_log (assessment_id, step, entries) SELECT v.id, 0, v.debug_log FROM v JOIN i USING (id))
       SELECT (SELECT array_agg(id) FROM i) AS written, (SELECT generation FROM g) AS generation`,
      [JSON.stringify(all)],
    );
    const written = new Set(rows[0].written ?? []);
    const generation = Number(rows[0].generation);
    return all.map((a) => ({ written: written.has(a.id), generation }));
  }

  /**
   * `ownerId` narrows to one owner's assessment (a PCP's view); null reads any. `history` adds the
   * record's history snapshot (the case detail). An answer reads it only when this process kept no copy of the row.
   */
  async find(id: string, ownerId: string | null, debug = false, history = false): Promise<StoredAssessmentRow | null> {
    const qb = this.select(debug).where('a.id = :id', { id });
    if (ownerId) qb.andWhere('a.user_id = :ownerId', { ownerId });
    if (history) qb.addSelect('a.record_history', 'record_history');
    return (await qb.getRawOne<StoredAssessmentRow>()) ?? null;
  }

  /** The e-mail of an assessment's owner, for an administrator reading another user's assessment. */
  async ownerEmail(userId: string): Promise<string> {
    // An assessment goes with its user (ON DELETE CASCADE), so its owner is always found.
    return (await userLabels(this.db.manager, [userId])).get(userId)?.email ?? '';
  }

  /**
   * Writes the answer only if the assessment is still at `step` (every write moves the step on, so
   * the row is then exactly the one the answer was checked against) and the knowledge generation is
   * still the one the decision's kept facts were read at; appends the answer's log as a row of its own.
   * The answer round trip's only statement (shared with the answers written at the same moment).
   */
  applyAnswer(id: string, step: number, w: AnswerWrite): Promise<Written> {
    return this.answers.submit({ ...w, id, step });
  }

  /**
   * Several answers in one statement, prepared once per connection on PostgreSQL; the outcome of each, in order. Two
   * answers to one assessment at one step (a double submit) update it once: `n` tells which of them was written.
   */
  private async applyAll(all: (AnswerWrite & { id: string; step: number })[]): Promise<Written[]> {
    const rows = await preparedQuery<{ written: number[] | null; generation: string }>(
      this.db,
      'assessment_answers',
      `WITH g AS (SELECT ${GENERATION} AS generation),
            v AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(n int, id uuid, step int, at timestamptz,
                    current_parameter_id uuid, current_question jsonb, is_completed boolean, recommendation jsonb,
                    findings jsonb, undetermined_rules jsonb, completed_at timestamptz, parameter_id text, detail jsonb,
                    ruled_out jsonb, generation bigint, log jsonb)),
            u AS (UPDATE assessments a SET step = a.step + 1, updated_at = v.at,
                    current_parameter_id = v.current_parameter_id, current_question = v.current_question,
                    is_completed = v.is_completed, recommendation = v.recommendation, findings = v.findings,
                    undetermined_rules = v.undetermined_rules, completed_at = v.completed_at,
                    answers = a.answers || jsonb_build_object(v.parameter_id, v.detail -> 'value'),
                    completed_parameter_ids = a.completed_parameter_ids || jsonb_build_array(v.parameter_id),
                    answer_details = a.answer_details || jsonb_build_array(v.detail), ruled_out = v.ruled_out
                    FROM v
                   WHERE a.id = v.id AND a.step = v.step AND (v.generation IS NULL OR (SELECT generation FROM g) = v.generation)
                  RETURNING v.n, a.id, v.step, v.log),
            l AS (INSERT INTO assessment_log (assessment_id, step, entries) SELECT id, step, log FROM u)
       SELECT (SELECT array_agg(n) FROM u) AS written, (SELECT generation FROM g) AS generation`,
      [JSON.stringify(all.map((w, n) => ({ ...w, n })))],
    );
    const written = new Set(rows[0].written ?? []);
    const generation = Number(rows[0].generation);
    return all.map((_, n) => ({ written: written.has(n), generation }));
  }

  /** The knowledge generation stored now. */
  async knowledgeGeneration(): Promise<number> {
    const row = await this.db
      .createQueryBuilder()
      .select('g.generation', 'generation')
      .from('knowledge_generation', 'g')
      .where('g.id = 1')
      .getRawOne<{ generation: string }>();
    return Number(row!.generation);
  }

  /**
   * What the question's wording is made of, as stored now (null when the parameter is gone), with the generation.
   * The generation is read first: what is read after it is at least as new, so a copy kept under it is never newer
   * than the writes it lets through (a write since refuses the answer's guarded UPDATE). Cache misses only.
   */
  async wordingSource(parameterId: string): Promise<WordingRead> {
    const generation = await this.knowledgeGeneration();
    const [p] = await parametersByIds(this.db.manager, [parameterId]);
    if (!p) return { generation, source: null };
    const { name, display_name, category, data_type, units, question_override, polished_question, polished_input_hash } = p;
    return {
      generation,
      source: { name, display_name, category, data_type, units, question_override, polished_question, polished_input_hash },
    };
  }

  /** Every parameter's LOINC code (those with one), with the generation read before them (as for the wording). */
  async loincCodes(): Promise<{ generation: number; codes: Record<string, string> }> {
    const generation = await this.knowledgeGeneration();
    return { generation, codes: Object.fromEntries(await loincCodesOf(this.db.manager)) };
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
      .getRawMany<StoredAssessmentRow>();
    const owners = await userLabels(
      this.db.manager,
      rows.map((r) => r.user_id),
    );
    return { rows: rows.map((r) => ({ ...r, user_email: owners.get(r.user_id)?.email ?? '' })), total };
  }

  async countsFor(userId: string): Promise<{ total: number; completed: number; with_recommendation: number }> {
    const row = await this.db
      .createQueryBuilder()
      .from(Assessment, 'a')
      .select('count(*)::int', 'total')
      .addSelect('count(*) FILTER (WHERE a.is_completed)::int', 'completed')
      .addSelect('count(*) FILTER (WHERE a.recommendation IS NOT NULL)::int', 'with_recommendation')
      .where('a.user_id = :userId', { userId })
      .getRawOne<{ total: number; completed: number; with_recommendation: number }>();
    return row!;
  }
}

/**
 * The answers of every recorded assessment that has any (the patients already seen), oldest first: the impact
 * preview's first population, read inside its caller's snapshot (`m`).
 */
export function recordedAnswers(m: EntityManager): Promise<{ answers: Answers; created_at: Date }[]> {
  return m
    .createQueryBuilder(Assessment, 'a')
    .select(['a.answers AS answers', 'a.created_at AS created_at'])
    .where(`a.answers <> '{}'::jsonb`)
    .orderBy('a.created_at')
    .addOrderBy('a.id')
    .getRawMany<{ answers: Answers; created_at: Date }>();
}
