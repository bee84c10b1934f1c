import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose every change bumped the generation before this migration (their truncate triggers stay). */
const NARROWED = ['rule_sets', 'parameters', 'cds_clients'];

const LIVE_OLD = `(OLD."is_active" AND OLD."is_published" AND OLD."deleted_at" IS NULL)`;
const LIVE_NEW = `(NEW."is_active" AND NEW."is_published" AND NEW."deleted_at" IS NULL)`;

/**
 * Row triggers that bump the hook generation only for what a hook call's copy holds
 * (`HookSnapshots`): the active clients' issuer, keys, services and FHIR servers; which rule sets are
 * live (active, published, not deleted), their names and order; every version (published versions are
 * immutable, so any insert or delete); and the LOINC code of a parameter that a live rule set's latest
 * version uses. Everything else a call needs comes from the immutable version snapshots: a parameter's
 * units, data type or validation rules change a call only once a new version is published, and that
 * publish bumps. So editing a parameter no published version uses, a draft rule set, a question's
 * wording or a client's name no longer sends every hook call in flight back to evaluate again (with about
 * 30 parameter writes a second, 23 % of calls ran out of attempts and got 503).
 */
export class CdsHookGenerationWhatCallsRead1796150000000 implements MigrationInterface {
  name = 'CdsHookGenerationWhatCallsRead1796150000000';

  public async up(q: QueryRunner): Promise<void> {
    for (const t of NARROWED) await q.query(`DROP TRIGGER "TRG_${t}_cds_hook_generation" ON "${t}"`);
    // A LOINC code matters only to a parameter in a live rule set's latest version, which the check
    // below reads. A publish or activation that makes the parameter used, committing meanwhile, bumps
    // for itself: taking the counter's row lock first waits for one that has already bumped to commit
    // (READ COMMITTED: the check then sees it), and one that bumps later is ordered after this commit,
    // so the copy it makes a call re-read has this code. Under a stricter isolation level the check
    // would read the transaction's older snapshot, so it bumps without checking.
    await q.query(`CREATE FUNCTION "bump_cds_hook_generation_for_loinc"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        parameter_id text := CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END;
      BEGIN
        IF current_setting('cds.hook_generation_bumped', true) IS NOT DISTINCT FROM 'on' THEN
          RETURN NULL;
        END IF;
        IF current_setting('transaction_isolation') = 'read committed' THEN
          PERFORM 1 FROM "cds_hook_generation" FOR UPDATE;
          IF NOT EXISTS (
            SELECT 1 FROM "rule_sets" rs
              JOIN "rule_set_versions" v ON v."rule_set_id" = rs."id"
               AND v."number" = (SELECT max(x."number") FROM "rule_set_versions" x WHERE x."rule_set_id" = rs."id")
             WHERE rs."is_active" AND rs."is_published" AND rs."deleted_at" IS NULL
               AND v."parameters" @> jsonb_build_array(jsonb_build_object('id', parameter_id))
          ) THEN
            RETURN NULL;
          END IF;
        END IF;
        UPDATE "cds_hook_generation" SET "generation" = "generation" + 1;
        PERFORM set_config('cds.hook_generation_bumped', 'on', true);
        RETURN NULL;
      END $$`);
    const triggers: [table: string, event: string, when: string, fn: string][] = [
      ['parameters', 'INSERT', `NEW."loinc_code" IS NOT NULL`, 'bump_cds_hook_generation_for_loinc'],
      ['parameters', 'UPDATE', `OLD."loinc_code" IS DISTINCT FROM NEW."loinc_code"`, 'bump_cds_hook_generation_for_loinc'],
      ['parameters', 'DELETE', `OLD."loinc_code" IS NOT NULL`, 'bump_cds_hook_generation_for_loinc'],
      ['rule_sets', 'INSERT', LIVE_NEW, 'bump_cds_hook_generation'],
      [
        'rule_sets',
        'UPDATE',
        `(${LIVE_OLD} OR ${LIVE_NEW}) AND (OLD."is_active", OLD."is_published", OLD."deleted_at", OLD."name", OLD."created_at")
           IS DISTINCT FROM (NEW."is_active", NEW."is_published", NEW."deleted_at", NEW."name", NEW."created_at")`,
        'bump_cds_hook_generation',
      ],
      ['rule_sets', 'DELETE', LIVE_OLD, 'bump_cds_hook_generation'],
      ['cds_clients', 'INSERT', `NEW."is_active"`, 'bump_cds_hook_generation'],
      [
        'cds_clients',
        'UPDATE',
        `(OLD."is_active" OR NEW."is_active") AND (OLD."issuer", OLD."jwks_url", OLD."jwk", OLD."allowed_services", OLD."allowed_fhir_servers", OLD."is_active")
           IS DISTINCT FROM (NEW."issuer", NEW."jwks_url", NEW."jwk", NEW."allowed_services", NEW."allowed_fhir_servers", NEW."is_active")`,
        'bump_cds_hook_generation',
      ],
      ['cds_clients', 'DELETE', `OLD."is_active"`, 'bump_cds_hook_generation'],
    ];
    for (const [table, event, when, fn] of triggers) {
      await q.query(`CREATE CONSTRAINT TRIGGER "TRG_${table}_cds_hook_generation_${event.toLowerCase()}" AFTER ${event} ON "${table}"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION "${fn}"()`);
    }
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const t of NARROWED) {
      for (const event of ['insert', 'update', 'delete']) await q.query(`DROP TRIGGER "TRG_${t}_cds_hook_generation_${event}" ON "${t}"`);
    }
    await q.query(`DROP FUNCTION "bump_cds_hook_generation_for_loinc"()`);
    for (const t of NARROWED) {
      await q.query(`CREATE CONSTRAINT TRIGGER "TRG_${t}_cds_hook_generation" AFTER INSERT OR UPDATE OR DELETE ON "${t}"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cds_hook_generation"()`);
    }
  }
}
