import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 22: an answer is one statement.
 * - `knowledge_generation`: one counter, moved on (at commit) by every write to the parameters, the rule
 *   sets and their versions, from wherever it comes (any API process, the worker, the CLI, a DBA). An API
 *   process may then keep what it read of them (the published versions in use, LOINC codes, question
 *   wording) with the generation it read it at, and an answer's or a start's write applies only while that
 *   generation is still current: no publish, deactivation or parameter edit is missed, and none needs a
 *   read per answer.
 * - `assessment_log`: the evaluation log of the start (step 0) and of each answer as rows of their own, each
 *   appended in its own statement, instead of the whole log rewritten in the assessment's row on every answer.
 *   Assessments started before keep theirs in `assessments.debug_log`; `?debug=true` shows both, in order.
 *   `down()` folds the rows back into it.
 */
export class AnswerOneRoundTrip1796610000000 implements MigrationInterface {
  name = 'AnswerOneRoundTrip1796610000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "knowledge_generation" ("id" smallint NOT NULL DEFAULT 1, "generation" bigint NOT NULL DEFAULT 0,
         CONSTRAINT "CHK_knowledge_generation_one_row" CHECK ("id" = 1), CONSTRAINT "PK_knowledge_generation" PRIMARY KEY ("id"))`,
    );
    await q.query(`INSERT INTO "knowledge_generation" ("id", "generation") VALUES (1, 0)`);
    await q.query(
      `CREATE FUNCTION "knowledge_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         -- Once per transaction, however many rows it wrote (as cds_hook_generation's trigger does).
         IF current_setting('cds.knowledge_generation_bumped', true) IS DISTINCT FROM 'on' THEN
           UPDATE "knowledge_generation" SET "generation" = "generation" + 1 WHERE "id" = 1;
           PERFORM set_config('cds.knowledge_generation_bumped', 'on', true);
         END IF;
         RETURN NULL;
       END $$`,
    );
    for (const table of TABLES) {
      // Deferred to the commit: the counter's row lock is taken last and held only while committing.
      await q.query(
        `CREATE CONSTRAINT TRIGGER "TRG_${table}_knowledge_changed" AFTER INSERT OR UPDATE OR DELETE ON "${table}"
           DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "knowledge_changed"()`,
      );
      await q.query(
        `CREATE TRIGGER "TRG_${table}_knowledge_truncated" AFTER TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "knowledge_changed"()`,
      );
    }
    await q.query(
      `CREATE TABLE "assessment_log" ("assessment_id" uuid NOT NULL, "step" integer NOT NULL, "entries" jsonb NOT NULL,
         CONSTRAINT "PK_assessment_log" PRIMARY KEY ("assessment_id", "step"),
         CONSTRAINT "CHK_assessment_log_entries" CHECK (jsonb_typeof("entries") = 'array'),
         CONSTRAINT "FK_assessment_log_assessment" FOREIGN KEY ("assessment_id") REFERENCES "assessments"("id") ON DELETE CASCADE)`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE "assessments" a SET "debug_log" = a."debug_log" || l."entries"
         FROM (SELECT "assessment_id", jsonb_agg(e ORDER BY "step", n) AS "entries"
                 FROM "assessment_log", jsonb_array_elements("entries") WITH ORDINALITY AS x(e, n) GROUP BY "assessment_id") l
        WHERE l."assessment_id" = a."id"`,
    );
    await q.query(`DROP TABLE "assessment_log"`);
    for (const table of [...TABLES].reverse()) {
      await q.query(`DROP TRIGGER "TRG_${table}_knowledge_truncated" ON "${table}"`);
      await q.query(`DROP TRIGGER "TRG_${table}_knowledge_changed" ON "${table}"`);
    }
    await q.query(`DROP FUNCTION "knowledge_changed"()`);
    await q.query(`DROP TABLE "knowledge_generation"`);
  }
}

const TABLES = ['parameters', 'rule_sets', 'rule_set_versions'];
