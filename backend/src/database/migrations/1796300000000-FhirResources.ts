import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 21 (records in): patients' FHIR resources as the EHR or an import sent them, one row per
 * resourceType/id with its version. Read by patient and type, as the criteria read a record.
 */
export class FhirResources1796300000000 implements MigrationInterface {
  name = 'FhirResources1796300000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "fhir_resources" (
      "resource_type" varchar(64) NOT NULL,
      "id" varchar(255) NOT NULL,
      "patient_id" varchar(255),
      "version_id" integer NOT NULL DEFAULT 1,
      "last_updated" timestamptz NOT NULL DEFAULT now(),
      "resource" jsonb NOT NULL,
      CONSTRAINT "PK_fhir_resources" PRIMARY KEY ("resource_type", "id")
    )`);
    await q.query(`CREATE INDEX "IDX_fhir_resources_patient" ON "fhir_resources" ("patient_id", "resource_type")`);
    // Criteria name value sets by canonical URL.
    await q.query(
      `CREATE INDEX "IDX_fhir_resources_value_set_url" ON "fhir_resources" (("resource"->>'url')) WHERE "resource_type" = 'ValueSet'`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "fhir_resources"`);
  }
}
