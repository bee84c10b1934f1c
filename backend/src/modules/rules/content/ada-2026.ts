import { GLYCEMIA_RULES, GLYCEMIA_VIGNETTES } from './ada-2026-glycemia';
import { KIDNEY_RULES, KIDNEY_VIGNETTES } from './ada-2026-kidney';
import { BLOOD_PRESSURE_RULES, BLOOD_PRESSURE_VIGNETTES } from './ada-2026-blood-pressure';
import { WEIGHT_SCREENING_RULES, WEIGHT_SCREENING_VIGNETTES } from './ada-2026-weight-screening';

import type { ContentPack, PackRule, PackVignette } from './pack-building';

export type { ContentPack, PackRule, PackVignette } from './pack-building';

export const ADA_2026_PACK_KEY = 'ada-2026';
export const ADA_2026_PACK_NAME = 'ADA Standards of Care 2026 — diabetes, kidney and blood pressure';
export const ADA_2026_PACK_DESCRIPTION =
  'Diagnosis (confirmed / needs confirmation), prediabetes, discordant results, A1C reliability, hypoglycemia levels 1–2, KDIGO CKD stages, albuminuria and risk grid with nephrology referral, hypertensive crisis and stages, BP goal in diabetes, BMI categories with Asian-American cut-points and diabetes screening. Installs as a draft with its parameters and vignettes.';

/** The rules, area by area in the order they always had. */
const RULES: PackRule[] = [...GLYCEMIA_RULES, ...KIDNEY_RULES, ...BLOOD_PRESSURE_RULES, ...WEIGHT_SCREENING_RULES];

/** The pack's own vignettes: each cut-point side and each combination rule; they gate its publication. */
const VIGNETTES: PackVignette[] = [...GLYCEMIA_VIGNETTES, ...KIDNEY_VIGNETTES, ...BLOOD_PRESSURE_VIGNETTES, ...WEIGHT_SCREENING_VIGNETTES];

export const ADA_2026_PACK: ContentPack = {
  key: ADA_2026_PACK_KEY,
  name: ADA_2026_PACK_NAME,
  description: ADA_2026_PACK_DESCRIPTION,
  source: 'ADA Standards of Care in Diabetes—2026; KDIGO 2024 CKD guideline; ACC/AHA 2017 High Blood Pressure Guideline',
  rules: RULES,
  vignettes: VIGNETTES,
};

export const CONTENT_PACKS: Readonly<Record<string, ContentPack>> = { [ADA_2026_PACK_KEY]: ADA_2026_PACK };

/** The parameter-template names a pack's rules and vignettes read, in first-use order. */
export function packParameterKeys(pack: ContentPack): string[] {
  const keys = new Set<string>();
  for (const r of pack.rules) for (const cond of r.conditions) keys.add(cond.parameter);
  for (const v of pack.vignettes) for (const k of Object.keys(v.answers)) keys.add(k);
  return [...keys];
}
