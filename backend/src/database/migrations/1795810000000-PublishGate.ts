import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 9 (publish gate and seeded content):
 * - rules and rule sets carry a `source` (the guideline cited), copied into each published version;
 * - a published version records the warnings acknowledged at publish (who, when, why);
 * - rule-set test cases: patient vignettes with the expected fired rules and primary recommendation;
 * - the six seeded parameter templates get half-open ranges, UCUM units, limits and a source.
 *   Only template rows still exactly as seeded are changed (is_template, same units and
 *   validation_rules as the old seed): a template an administrator edited, and every clinician's
 *   parameter (copies made from a template included), are left alone. The change is recorded in
 *   the parameter history. Down restores rows this migration changed and still untouched since.
 */
const TEMPLATE_FIXES: { name: string; before: Seeded; after: Seeded }[] = JSON.parse(
  `[{"name":"hba1c","before":{"units":"%","validation_rules":{"normal_range":{"min":4,"max":5.6},"prediabetes_range":{"min":5.7,"max":6.4},"diabetes_range":{"min":6.5,"max":15},"time_constraint":"last_3_months","age_adjustments":{"elderly":{"min_age":65,"target_max":7.5},"adult":{"min_age":18,"target_max":7}}}},"after":{"units":"%","validation_rules":{"min":3,"max":20,"decimals":1,"units_accepted":[{"code":"mmol/mol","factor":0.09148,"offset":2.152}],"source":"ADA Standards of Care in Diabetes—2026, Section 2 (Diagnosis and Classification of Diabetes)","ranges":[{"name":"normal","label":"Normal","min":3,"max":5.7,"min_inclusive":true,"max_inclusive":false},{"name":"prediabetes","label":"Prediabetes","min":5.7,"max":6.5,"min_inclusive":true,"max_inclusive":false},{"name":"diabetes","label":"Diabetes","min":6.5,"max":20,"min_inclusive":true,"max_inclusive":true}],"time_constraint":"last_3_months","age_adjustments":{"elderly":{"min_age":65,"target_max":7.5},"adult":{"min_age":18,"target_max":7}}}}},{"name":"fasting_glucose","before":{"units":"mg/dL","validation_rules":{"normal_range":{"min":70,"max":99},"prediabetes_range":{"min":100,"max":125},"diabetes_range":{"min":126,"max":400},"time_constraint":"fasting_8_hours","unit_conversion":{"from":"mmol/L","to":"mg/dL","factor":18}}},"after":{"units":"mg/dL","validation_rules":{"min":20,"max":800,"decimals":0,"units_accepted":[{"code":"mmol/L","factor":18}],"source":"ADA Standards of Care in Diabetes—2026, Section 2 (Diagnosis and Classification of Diabetes)","ranges":[{"name":"hypoglycemia","label":"Below 70 (hypoglycaemia)","min":20,"max":70,"min_inclusive":true,"max_inclusive":false},{"name":"normal","label":"Normal","min":70,"max":100,"min_inclusive":true,"max_inclusive":false},{"name":"prediabetes","label":"Prediabetes (impaired fasting glucose)","min":100,"max":126,"min_inclusive":true,"max_inclusive":false},{"name":"diabetes","label":"Diabetes","min":126,"max":800,"min_inclusive":true,"max_inclusive":true}],"time_constraint":"fasting_8_hours"}}},{"name":"blood_pressure_systolic","before":{"units":"mmHg","validation_rules":{"target_range":{"min":90,"max":130},"stage_1_hypertension_range":{"min":130,"max":139},"stage_2_hypertension_range":{"min":140,"max":180},"crisis_range":{"min":180,"max":250},"diabetes_target":{"max":130}}},"after":{"units":"mm[Hg]","validation_rules":{"min":50,"max":300,"decimals":0,"source":"ADA Standards of Care in Diabetes—2026, Section 10 (Cardiovascular Disease and Risk Management); ACC/AHA High Blood Pressure Guideline","ranges":[{"name":"target","label":"At target (< 130)","min":50,"max":130,"min_inclusive":true,"max_inclusive":false},{"name":"stage_1_hypertension","label":"Stage 1 hypertension","min":130,"max":140,"min_inclusive":true,"max_inclusive":false},{"name":"stage_2_hypertension","label":"Stage 2 hypertension","min":140,"max":180,"min_inclusive":true,"max_inclusive":false},{"name":"crisis","label":"Hypertensive crisis (also stage 2)","min":180,"max":300,"min_inclusive":true,"max_inclusive":true}],"diabetes_target":{"max":130,"max_inclusive":false}}}},{"name":"blood_pressure_diastolic","before":{"units":"mmHg","validation_rules":{"target_range":{"min":60,"max":80},"stage_1_hypertension_range":{"min":80,"max":89},"stage_2_hypertension_range":{"min":90,"max":120},"crisis_range":{"min":120,"max":140},"diabetes_target":{"max":80}}},"after":{"units":"mm[Hg]","validation_rules":{"min":20,"max":200,"decimals":0,"source":"ADA Standards of Care in Diabetes—2026, Section 10 (Cardiovascular Disease and Risk Management); ACC/AHA High Blood Pressure Guideline","ranges":[{"name":"target","label":"At target (< 80)","min":20,"max":80,"min_inclusive":true,"max_inclusive":false},{"name":"stage_1_hypertension","label":"Stage 1 hypertension","min":80,"max":90,"min_inclusive":true,"max_inclusive":false},{"name":"stage_2_hypertension","label":"Stage 2 hypertension","min":90,"max":120,"min_inclusive":true,"max_inclusive":false},{"name":"crisis","label":"Hypertensive crisis (also stage 2)","min":120,"max":200,"min_inclusive":true,"max_inclusive":true}],"diabetes_target":{"max":80,"max_inclusive":false}}}},{"name":"bmi","before":{"units":"kg/m²","validation_rules":{"underweight_range":{"max":18.5},"normal_range":{"min":18.5,"max":24.9},"overweight_range":{"min":25,"max":29.9},"obese_range":{"min":30,"max":50},"formula":"weight_kg / (height_m * height_m)"}},"after":{"units":"kg/m2","validation_rules":{"min":10,"max":80,"decimals":1,"source":"ADA Standards of Care in Diabetes—2026, Section 8 (Obesity and Weight Management); WHO Asian BMI cut-points (23 / 27.5 kg/m²), used by ADA Section 2 for screening Asian Americans","ranges":[{"name":"underweight","label":"Underweight","min":10,"max":18.5,"min_inclusive":true,"max_inclusive":false},{"name":"normal","label":"Normal weight","min":18.5,"max":25,"min_inclusive":true,"max_inclusive":false},{"name":"overweight","label":"Overweight","min":25,"max":30,"min_inclusive":true,"max_inclusive":false},{"name":"obese","label":"Obesity","min":30,"max":80,"min_inclusive":true,"max_inclusive":true}],"asian_american_ranges":[{"name":"underweight","label":"Underweight","min":10,"max":18.5,"min_inclusive":true,"max_inclusive":false},{"name":"normal","label":"Normal weight","min":18.5,"max":23,"min_inclusive":true,"max_inclusive":false},{"name":"overweight","label":"Overweight","min":23,"max":27.5,"min_inclusive":true,"max_inclusive":false},{"name":"obese","label":"Obesity","min":27.5,"max":80,"min_inclusive":true,"max_inclusive":true}],"formula":"weight_kg / (height_m * height_m)"}}},{"name":"microalbumin","before":{"units":"mg/g creatinine","validation_rules":{"normal_range":{"max":30},"microalbuminuria_range":{"min":30,"max":300},"macroalbuminuria_range":{"min":300,"max":5000},"time_constraint":"annual_screening","gender_adjustments":true}},"after":{"units":"mg/g","validation_rules":{"min":0,"max":5000,"decimals":0,"units_accepted":[{"code":"mg/mmol","factor":8.84}],"source":"ADA Standards of Care in Diabetes—2026, Section 11 (Chronic Kidney Disease and Risk Management); KDIGO albuminuria categories","ranges":[{"name":"normal","label":"Normal to mildly increased (A1)","min":0,"max":30,"min_inclusive":true,"max_inclusive":false},{"name":"moderately_increased","label":"Moderately increased (A2)","min":30,"max":300,"min_inclusive":true,"max_inclusive":false},{"name":"severely_increased","label":"Severely increased (A3)","min":300,"max":5000,"min_inclusive":true,"max_inclusive":true}],"time_constraint":"annual_screening"}}}]`,
);
interface Seeded {
  units: string;
  validation_rules: Record<string, unknown>;
}
const REASON = 'Issue 9: half-open ranges, UCUM units, plausible limits, decimals and source (migration 1795810000000)';

export class PublishGate1795810000000 implements MigrationInterface {
  name = 'PublishGate1795810000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "rules" ADD "source" varchar(500)`);
    await q.query(`ALTER TABLE "rule_sets" ADD "source" varchar(500)`);
    await q.query(`ALTER TABLE "rule_set_versions" ADD "source" varchar(500)`);
    await q.query(`ALTER TABLE "rule_set_versions" ADD "warning_acknowledgement" jsonb`);
    await q.query(`CREATE TABLE "rule_set_test_cases" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "rule_set_id" uuid NOT NULL,
      "name" varchar(200) NOT NULL,
      "answers" jsonb NOT NULL,
      "expected_fired" jsonb NOT NULL,
      "expected_primary" varchar(100),
      "reference_date" timestamptz,
      "created_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_rule_set_test_cases" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_rule_set_test_cases_name" CHECK (btrim("name") <> ''),
      CONSTRAINT "CHK_rule_set_test_cases_answers" CHECK (jsonb_typeof("answers") = 'object'),
      CONSTRAINT "CHK_rule_set_test_cases_fired" CHECK (jsonb_typeof("expected_fired") = 'array'),
      CONSTRAINT "FK_rule_set_test_cases_rule_set" FOREIGN KEY ("rule_set_id") REFERENCES "rule_sets"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_rule_set_test_cases_created_by" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    await q.query(`CREATE INDEX "IDX_rule_set_test_cases_rule_set" ON "rule_set_test_cases" ("rule_set_id")`);
    for (const t of TEMPLATE_FIXES) await this.move(q, t.name, t.before, t.after);
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const t of TEMPLATE_FIXES) await this.move(q, t.name, t.after, t.before, true);
    await q.query(`DROP TABLE "rule_set_test_cases"`);
    await q.query(`ALTER TABLE "rule_set_versions" DROP COLUMN "warning_acknowledgement"`);
    await q.query(`ALTER TABLE "rule_set_versions" DROP COLUMN "source"`);
    await q.query(`ALTER TABLE "rule_sets" DROP COLUMN "source"`);
    await q.query(`ALTER TABLE "rules" DROP COLUMN "source"`);
  }

  private async move(q: QueryRunner, name: string, from: Seeded, to: Seeded, undo = false): Promise<void> {
    const rows: { id: string; name: string }[] = await q.query(
      `UPDATE "parameters" SET "units" = $1, "validation_rules" = $2::jsonb, "updated_at" = now()
        WHERE "is_template" AND lower("name") = $3 AND "units" IS NOT DISTINCT FROM $4 AND "validation_rules" = $5::jsonb
        RETURNING "id", "name"`,
      [to.units, JSON.stringify(to.validation_rules), name, from.units, JSON.stringify(from.validation_rules)],
    );
    const changed = Array.isArray(rows[0]) ? (rows[0] as { id: string; name: string }[]) : rows;
    for (const p of changed) {
      if (undo) {
        await q.query(`DELETE FROM "parameter_changes" WHERE "parameter_id" = $1 AND "change_reason" = $2`, [p.id, REASON]);
      } else {
        await q.query(
          `INSERT INTO "parameter_changes" ("parameter_id", "parameter_name", "change_type", "old_values", "new_values", "changed_by", "change_reason")
           VALUES ($1, $2, 'updated', $3::jsonb, $4::jsonb, NULL, $5)`,
          [p.id, p.name, JSON.stringify(from), JSON.stringify(to), REASON],
        );
      }
    }
  }
}
