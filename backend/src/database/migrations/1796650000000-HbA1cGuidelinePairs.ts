import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One HbA1c conversion everywhere: the templates read IFCC mmol/mol through ADA's pairs up to 7 %
 * only, the Panel through 6.5 % and 9 %, so 58 mmol/mol read 7.46 % in the case detail and 7.43 % on
 * the Panel, and 75 mmol/mol read 9.01 % (above CMS122's 9 %) through the templates. Seeded template
 * rows whose conversion is still exactly as seeded get the full pair list (39 / 48 / 53 / 64 / 75
 * mmol/mol = 5.7 / 6.5 / 7 / 8 / 9 %); a template an administrator edited, and every parameter in
 * use, are left alone, as migration 1796420000000 did. Down restores rows still untouched since.
 */
const PERCENT_FROM_MMOL_3 = [
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
];
const PERCENT_FROM_MMOL_5 = [
  {
    code: 'mmol/mol',
    factor: 0.09148,
    offset: 2.152,
    equivalents: [
      [39, 5.7],
      [48, 6.5],
      [53, 7],
      [64, 8],
      [75, 9],
    ],
  },
];
const MMOL_FROM_PERCENT_2 = [
  {
    code: '%',
    factor: 10.93135,
    offset: -23.52427,
    decimals: 1,
    equivalents: [
      [5.7, 39],
      [6.5, 48],
    ],
  },
];
const MMOL_FROM_PERCENT_5 = [
  {
    code: '%',
    factor: 10.93135,
    offset: -23.52427,
    decimals: 1,
    equivalents: [
      [5.7, 39],
      [6.5, 48],
      [7, 53],
      [8, 64],
      [9, 75],
    ],
  },
];

const FIXES: { name: string; path: string[]; before: unknown[]; after: unknown[] }[] = [
  { name: 'hba1c', path: ['units_accepted'], before: PERCENT_FROM_MMOL_3, after: PERCENT_FROM_MMOL_5 },
  { name: 'hba1c_ifcc', path: ['units_accepted'], before: MMOL_FROM_PERCENT_2, after: MMOL_FROM_PERCENT_5 },
  { name: 'a1c_diabetes_range_days', path: ['criterion', 'units_accepted'], before: PERCENT_FROM_MMOL_3, after: PERCENT_FROM_MMOL_5 },
];
const REASON = 'One HbA1c conversion: ADA pairs 39 / 48 / 53 / 64 / 75 mmol/mol = 5.7 / 6.5 / 7 / 8 / 9 % (migration 1796650000000)';

export class HbA1cGuidelinePairs1796650000000 implements MigrationInterface {
  name = 'HbA1cGuidelinePairs1796650000000';

  public async up(q: QueryRunner): Promise<void> {
    for (const f of FIXES) await this.move(q, f.name, f.path, f.before, f.after, false);
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const f of FIXES) await this.move(q, f.name, f.path, f.after, f.before, true);
  }

  private async move(q: QueryRunner, name: string, path: string[], from: unknown[], to: unknown[], undo: boolean): Promise<void> {
    // jsonb equality ignores key order and compares numbers by value (7.0 = 7), so the seeded rows match.
    const rows: unknown = await q.query(
      `UPDATE "parameters" SET "validation_rules" = jsonb_set("validation_rules", $4::text[], $1::jsonb), "updated_at" = now()
        WHERE "is_template" AND lower("name") = $2 AND "validation_rules" #> $4::text[] = $3::jsonb
        RETURNING "id", "name"`,
      [JSON.stringify(to), name, JSON.stringify(from), path],
    );
    const list = rows as unknown[];
    const changed = (Array.isArray(list[0]) ? list[0] : list) as { id: string; name: string }[];
    const key = path.join('.');
    for (const p of changed) {
      if (undo) {
        await q.query(`DELETE FROM "parameter_changes" WHERE "parameter_id" = $1 AND "change_reason" = $2`, [p.id, REASON]);
      } else {
        await q.query(
          `INSERT INTO "parameter_changes" ("parameter_id", "parameter_name", "change_type", "old_values", "new_values", "changed_by", "change_reason")
           VALUES ($1, $2, 'updated', $3::jsonb, $4::jsonb, NULL, $5)`,
          [p.id, p.name, JSON.stringify({ [key]: from }), JSON.stringify({ [key]: to }), REASON],
        );
      }
    }
  }
}
