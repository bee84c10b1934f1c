import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { FhirBundleJson } from '@cds/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ruleVersionBundle } from '../fhir/content';
import { loincCodesOf } from '../parameters';
import { RuleVersionsService } from './rule-versions.service';

/** GET /api/rule-sets/:id/versions/:number/fhir: the version is loaded here, the fhir module maps it. */
@Injectable()
export class RuleVersionFhir {
  constructor(
    private readonly versions: RuleVersionsService,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The version's PlanDefinition and its Library of conditions (404 as GET …/versions/:number). */
  async bundle(ruleSetId: string, number: number): Promise<FhirBundleJson> {
    const v = await this.versions.version(ruleSetId, number);
    const { rules, parameters } = await this.versions.loadVersion(v.id);
    const loinc = await loincCodesOf(
      this.db.manager,
      parameters.map((p) => p.id),
    );
    const info = { rule_set_id: v.rule_set_id, name: v.name, version: v.number, published_at: v.published_at, source: v.source };
    return ruleVersionBundle({ base: this.config.publicUrl, loinc }, info, rules, parameters);
  }
}
