import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 20 (guideline cut-points in the unit the guideline publishes them): the seeded HbA1c, fasting
 * glucose and microalbumin templates get `equivalents` on their unit conversion (ADA and KDIGO pairs),
 * so 48 mmol/mol is 6.5 % and UACR 3 mg/mmol is 30 mg/g. Only template rows whose `units_accepted`
 * is still exactly as seeded are changed (their other rules are left as they are); a template an
 * administrator edited, and every clinician's parameter, are left alone. Down restores the rows this
 * migration changed and still untouched since.
 */
const FIXES: { name: string; before: unknown[]; after: unknown[] }[] = [
  {
    name: 'hba1c',
    before: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152 }],
    after: [
      {
        code: 'mmol/mol',
        factor: 0.09148,
        offset: 2.152,
        equivalents: [
          [39, 5.7],
          [48, 6.5],
          [53, 7.0],
        ],
      },
    ],
  },
  {
    name: 'fasting_glucose',
    before: [{ code: 'mmol/L', factor: 18 }],
    after: [
      {
        code: 'mmol/L',
        factor: 18,
        equivalents: [
          [3.0, 54],
          [3.9, 70],
          [5.6, 100],
          [7.0, 126],
        ],
      },
    ],
  },
  {
    name: 'microalbumin',
    before: [{ code: 'mg/mmol', factor: 8.84 }],
    after: [
      {
        code: 'mg/mmol',
        factor: 8.84,
        equivalents: [
          [3, 30],
          [30, 300],
        ],
      },
    ],
  },
];
const REASON = 'Issue 20: guideline cut-points in the unit the guideline publishes them (migration 1796420000000)';

export class TemplateEquivalents1796420000000 implements MigrationInterface {
  name = 'TemplateEquivalents1796420000000';

  public async up(q: QueryRunner): Promise<void> {
    for (const f of FIXES) await this.move(q, f.name, f.before, f.after, false);
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const f of FIXES) await this.move(q, f.name, f.after, f.before, true);
  }

  private async move(q: QueryRunner, name: string, from: unknown[], to: unknown[], undo: boolean): Promise<void> {
    const rows: unknown = await q.query(
      `UPDATE "parameters" SET "validation_rules" = jsonb_set("validation_rules", '{units_accepted}', $1::jsonb), "updated_at" = now()
        WHERE "is_template" AND lower("name") = $2 AND "validation_rules" -> 'units_accepted' = $3::jsonb
        RETURNING "id", "name"`,
      [JSON.stringify(to), name, JSON.stringify(from)],
    );
    const list = rows as unknown[];
    const changed = (Array.isArray(list[0]) ? list[0] : list) as { id: string; name: string }[];
    for (const p of changed) {
      if (undo) {
        await q.query(`DELETE FROM "parameter_changes" WHERE "parameter_id" = $1 AND "change_reason" = $2`, [p.id, REASON]);
      } else {
        await q.query(
          `INSERT INTO "parameter_changes" ("parameter_id", "parameter_name", "change_type", "old_values", "new_values", "changed_by", "change_reason")
           VALUES ($1, $2, 'updated', $3::jsonb, $4::jsonb, NULL, $5)`,
          [p.id, p.name, JSON.stringify({ units_accepted: from }), JSON.stringify({ units_accepted: to }), REASON],
        );
      }
    }
  }
}
