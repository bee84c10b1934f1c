import { MigrationInterface, QueryRunner } from 'typeorm';

/** The jsonb columns an answer writes (and the start), and the log's. */
const ASSESSMENT_JSONB = [
  'current_question',
  'answers',
  'completed_parameter_ids',
  'answer_details',
  'recommendation',
  'findings',
  'undetermined_rules',
  'ruled_out',
  'rule_set_versions',
  'record_patient',
  'record_history',
  'debug_log',
];

/**
 * Issue 22: how PostgreSQL stores the row an answer rewrites and the log row it appends. Storage only: no column,
 * value or constraint changes, and rows already stored stay as they are (each setting applies to what is written next).
 *
 * - `assessments`: `toast_tuple_target = 8160`. A completed assessment's row is ~4 kB of jsonb (findings, the
 *   recommendation, the answers and their details); above the default target (~2 kB) every answer that wrote it had
 *   PostgreSQL compress the fresh values (pglz, ~9 % of its CPU per answer request in `perf`) and move some out to
 *   TOAST (a second heap and index insert). Rows up to a page now stay whole and uncompressed in the heap.
 *   `fillfactor = 50`: a new row leaves half its page free, so the answers that grow it (1.3 kB at the start, ~4 kB
 *   at completion) can be written as HOT updates on the same page, touching none of the four indexes (the GIN on
 *   `rule_set_versions` included); 54–62 % of answer updates were HOT before.
 * - lz4 instead of pglz for every jsonb column of both tables, where the server has it (PostgreSQL built with lz4,
 *   as Debian's and the official images are; the embedded database is not and keeps pglz): the log row (~3 kB of
 *   JSON per answer) is still compressed, at a fraction of pglz's CPU.
 */
export class AnswerRowStorage1796950000000 implements MigrationInterface {
  name = 'AnswerRowStorage1796950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assessments" SET (fillfactor = 50, toast_tuple_target = 8160)`);
    if (await hasLz4(q)) await setCompression(q, 'lz4');
  }

  async down(q: QueryRunner): Promise<void> {
    if (await hasLz4(q)) await setCompression(q, 'pglz');
    await q.query(`ALTER TABLE "assessments" RESET (fillfactor, toast_tuple_target)`);
  }
}

async function hasLz4(q: QueryRunner): Promise<boolean> {
  const [row] = (await q.query(`SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`)) as {
    lz4: boolean;
  }[];
  return row?.lz4 === true;
}

async function setCompression(q: QueryRunner, method: 'lz4' | 'pglz'): Promise<void> {
  const columns = ASSESSMENT_JSONB.map((c) => `ALTER COLUMN "${c}" SET COMPRESSION ${method}`).join(', ');
  await q.query(`ALTER TABLE "assessments" ${columns}`);
  await q.query(`ALTER TABLE "assessment_log" ALTER COLUMN "entries" SET COMPRESSION ${method}`);
}
