import { Injectable } from '@nestjs/common';
import type { MeasureImpactJson, MeasureImpactPatientJson } from '@cds/contracts';
import { prepareMeasure } from '@cds/engine';
import { RecordsRepository } from '../../records';
import { valueSetsOf } from '../measure-content';
import { measureVersion } from '../measure-version';
import { MeasuresService } from '../measures.service';
import { patientName } from '../panel';
import { analysisOf, POPULATIONS } from './measure-design';
import { COMPARED, patientChange, readDraftRules, type DraftBody } from './measure-draft';

/** Patients whose records are read per statement while the two versions are compared. */
const SLICE = 500;
/** Patients listed by name in a preview; the rest are counted. */
const LISTED = 200;

/**
 * The impact preview for a measure draft (issue 21): every stored patient evaluated under the measure as it is
 * and under the draft's population rules, and those whose populations differ. Nothing is stored or published.
 */
@Injectable()
export class MeasureDraftService {
  constructor(
    private readonly measures: MeasuresService,
    private readonly records: RecordsRepository,
  ) {}

  async impact(id: string, body: DraftBody): Promise<MeasureImpactJson> {
    const measure = await this.measures.measure(id);
    const draft = readDraftRules(measure, body);
    const set = await this.measures.prepare([measure]);
    const codes = await this.records.valueSetCodes(valueSetsOf(measure));
    const current = set.prepared[0];
    const next = prepareMeasure(draft.model, codes);
    const ids = await this.records.patientIds();
    const now = Date.now();
    const counts = new Map(COMPARED.map((p) => [p, { before: 0, after: 0 }]));
    const changed: Omit<MeasureImpactPatientJson, 'name'>[] = [];
    let total = 0;
    for (let i = 0; i < ids.length; i += SLICE)
      for (const [patient, resources] of await this.records.recordsOf(ids.slice(i, i + SLICE))) {
        const before = current.evaluate(resources, draft.period, now);
        const after = next.evaluate(resources, draft.period, now);
        for (const p of COMPARED) {
          const c = counts.get(p)!;
          if (before.populations[p] === true) c.before += 1;
          if (after.populations[p] === true) c.after += 1;
        }
        const change = patientChange(patient, '', before, after);
        if (change) {
          total += 1;
          if (changed.length < LISTED) changed.push(change);
        }
      }
    const patients = await this.records.patients(changed.map((c) => c.patient_id));
    return {
      measure_id: measure.id,
      period: draft.period,
      versions: { current: set.versions.get(measure.id)!, draft: measureVersion({ ...measure, model: draft.model }, codes) },
      analysis: analysisOf({ ...measure, model: draft.model }),
      patients: ids.length,
      changed: total,
      counts: COMPARED.map((p) => ({ population: p, label: POPULATIONS.find((x) => x.code === p)!.label, ...counts.get(p)! })),
      changed_patients: changed.map((c) => ({ ...c, name: patientName(patients.get(c.patient_id), c.patient_id) })),
    };
  }
}
