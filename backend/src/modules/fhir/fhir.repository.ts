import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

@Injectable()
export class FhirRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** LOINC code by parameter id. The code lives on the parameter, not in a version's snapshot. */
  async loincCodes(parameterIds: readonly string[]): Promise<Map<string, string>> {
    if (!parameterIds.length) return new Map();
    const rows: { id: string; loinc_code: string }[] = await this.db.query(
      `SELECT id, loinc_code FROM parameters WHERE id = ANY($1::uuid[]) AND loinc_code IS NOT NULL`,
      [parameterIds],
    );
    return new Map(rows.map((r) => [r.id, r.loinc_code]));
  }
}
