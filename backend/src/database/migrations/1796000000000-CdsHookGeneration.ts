import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables a CDS hook call reads besides immutable version snapshots: what its cached copy must follow. */
const WATCHED = ['rule_sets', 'rule_set_versions', 'parameters', 'cds_clients'];

/**
 * A generation number for what a CDS hook call reads: registered clients, which versions are
 * published, parameters' LOINC codes. Every committed change to those tables bumps it, so an API
 * process may keep them in memory and check, in the one statement that records the call, that the
 * generation is still the one its copy was read at (else it re-reads and evaluates again).
 *
 * The bump is a deferred constraint trigger: it takes the counter's row lock at commit, after the
 * transaction's other locks, so two administrators' transactions can never deadlock on it.
 */
export class CdsHookGeneration1796000000000 implements MigrationInterface {
  name = 'CdsHookGeneration1796000000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "cds_hook_generation" ("id" boolean PRIMARY KEY DEFAULT true CHECK ("id"), "generation" bigint NOT NULL)`);
    await q.query(`INSERT INTO "cds_hook_generation" ("generation") VALUES (1)`);
    // Once per transaction, however many rows it changed (a flag local to the transaction).
    await q.query(`CREATE FUNCTION "bump_cds_hook_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('cds.hook_generation_bumped', true) IS DISTINCT FROM 'on' THEN
          UPDATE "cds_hook_generation" SET "generation" = "generation" + 1;
          PERFORM set_config('cds.hook_generation_bumped', 'on', true);
        END IF;
        RETURN NULL;
      END $$`);
    for (const t of WATCHED) {
      await q.query(`CREATE CONSTRAINT TRIGGER "TRG_${t}_cds_hook_generation" AFTER INSERT OR UPDATE OR DELETE ON "${t}"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cds_hook_generation"()`);
      // Constraint triggers do not fire on TRUNCATE.
      await q.query(`CREATE TRIGGER "TRG_${t}_cds_hook_generation_truncate" AFTER TRUNCATE ON "${t}"
        FOR EACH STATEMENT EXECUTE FUNCTION "bump_cds_hook_generation"()`);
    }
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const t of WATCHED) {
      await q.query(`DROP TRIGGER "TRG_${t}_cds_hook_generation_truncate" ON "${t}"`);
      await q.query(`DROP TRIGGER "TRG_${t}_cds_hook_generation" ON "${t}"`);
    }
    await q.query(`DROP FUNCTION "bump_cds_hook_generation"()`);
    await q.query(`DROP TABLE "cds_hook_generation"`);
  }
}
