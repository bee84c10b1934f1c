import type { PanelHistoryJson } from '@cds/contracts';
import {
  HBA1C_MMOL_MOL_TO_PERCENT,
  UACR_MG_MMOL_TO_MG_G,
  inParameterUnit,
  isUnreadable,
  readHistory,
  unitDisplay,
  type ParameterScale,
} from '@cds/engine';

/**
 * The results a physician looks at beside the measures, over time: HbA1c, blood pressure, eGFR and
 * UACR, each in the unit its guideline cut-points are written in (other spellings of that unit
 * read through the UCUM alias list, IFCC HbA1c through ADA's equation), with those cut-points.
 */
export interface Series {
  title: string;
  codes: string[];
  scale: ParameterScale;
  thresholds: { value: number; label: string }[];
}

/** HbA1c in %, IFCC mmol/mol read through ADA's pairs (the templates' conversion): the history plots it, the Panel's distribution bands it. */
export const HBA1C_SERIES: Series = {
  title: 'HbA1c',
  codes: ['4548-4', '17856-6', '59261-8'],
  scale: {
    unit: '%',
    min: null,
    max: null,
    conversions: [HBA1C_MMOL_MOL_TO_PERCENT],
  },
  thresholds: [
    { value: 6.5, label: 'Diabetes ≥ 6.5 % (ADA)' },
    { value: 9, label: 'CMS122: > 9 % is poor control' },
  ],
};

const SERIES: readonly Series[] = [
  HBA1C_SERIES,
  {
    title: 'Systolic blood pressure',
    codes: ['8480-6'],
    scale: { unit: 'mm[Hg]', min: null, max: null, conversions: [] },
    thresholds: [{ value: 140, label: 'CMS165: controlled < 140' }],
  },
  {
    title: 'Diastolic blood pressure',
    codes: ['8462-4'],
    scale: { unit: 'mm[Hg]', min: null, max: null, conversions: [] },
    thresholds: [{ value: 90, label: 'CMS165: controlled < 90' }],
  },
  {
    title: 'eGFR',
    codes: ['98979-8', '62238-1', '33914-3', '48642-3', '48643-1'],
    scale: { unit: 'mL/min/{1.73_m2}', min: null, max: null, conversions: [] },
    thresholds: [{ value: 60, label: 'KDIGO: < 60 is G3a or worse' }],
  },
  {
    title: 'Urine albumin-creatinine ratio',
    codes: ['9318-7', '14959-1', '32294-1'],
    scale: {
      unit: 'mg/g',
      min: null,
      max: null,
      conversions: [UACR_MG_MMOL_TO_MG_G],
    },
    thresholds: [{ value: 30, label: 'KDIGO: ≥ 30 mg/g is A2' }],
  },
];

/** Each test with at least one result in the record, oldest result first; a result that cannot be read in the unit is counted, not plotted. */
export function patientHistories(record: readonly unknown[], now: number): PanelHistoryJson[] {
  const out: PanelHistoryJson[] = [];
  for (const s of SERIES) {
    const { results } = readHistory(record, s.codes, now);
    if (!results.length) continue;
    const points: PanelHistoryJson['points'] = [];
    let notPlotted = 0;
    for (const r of results) {
      const read = r.comparator ? null : inParameterUnit(r, s.scale);
      if (!read || isUnreadable(read) || typeof read.value !== 'number') notPlotted++;
      else
        points.push({
          at: new Date(r.at).toISOString(),
          value: Number(read.value.toFixed(2)),
          // A converted value is plotted in the cut-points' unit and listed as the record gave it.
          ...(read.converted ? { entered: `${read.given} ${unitDisplay(read.unit ?? '')}` } : {}),
        });
    }
    points.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    out.push({ title: s.title, unit: unitDisplay(s.scale.unit), points, thresholds: s.thresholds, not_plotted: notPlotted });
  }
  return out;
}
