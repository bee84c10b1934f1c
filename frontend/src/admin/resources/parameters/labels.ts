import { criterionText, type CriterionSpec } from '@cds/engine';
import type { ComponentType } from 'react';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import PersonIcon from '@mui/icons-material/Person';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import ScienceIcon from '@mui/icons-material/Science';
import HistoryEduIcon from '@mui/icons-material/HistoryEdu';
import SickIcon from '@mui/icons-material/Sick';
import CategoryIcon from '@mui/icons-material/Category';
import { CATEGORY_LABELS } from '../../messages';
import type { ParameterJson } from '@cds/contracts';

export { CATEGORY_LABELS };

export const CATEGORY_ICONS: Record<string, ComponentType<SvgIconProps>> = {
  demographics: PersonIcon,
  vitals: MonitorHeartIcon,
  labs: ScienceIcon,
  history: HistoryEduIcon,
  symptoms: SickIcon,
  other: CategoryIcon,
};

export const DATA_TYPE_LABELS: Record<string, string> = {
  number: 'Number',
  text: 'Text',
  boolean: 'Yes/No',
  date: 'Date',
  select: 'Select',
  lab_range: 'Lab Range',
  time_based: 'Time Based',
  vitals: 'Vitals',
  calculated: 'Calculated',
};

export const categoryLabel = (c: string) => CATEGORY_LABELS[c] ?? c;
export const dataTypeLabel = (t: string) => DATA_TYPE_LABELS[t] ?? t;

/** "Complex Rules" shows when the parameter carries validation rules. */
export const hasValidationRules = (p: Pick<ParameterJson, 'validation_rules'>) =>
  !!p.validation_rules && Object.keys(p.validation_rules).length > 0;

/** How the parameter is read from the patient's record, in words, when a criterion binds it (issue 20); else null. */
export function recordReading(p: Pick<ParameterJson, 'validation_rules'>): string | null {
  const criterion = (p.validation_rules as { criterion?: unknown } | null)?.criterion;
  return criterion && typeof criterion === 'object' ? criterionText(criterion as CriterionSpec) : null;
}

/** Spec: the description, or '{category} parameter' when empty. */
export const describeParameter = (p: Pick<ParameterJson, 'description' | 'category'>) =>
  p.description?.trim() ? p.description : `${p.category} parameter`;

/** Where the question a clinician reads comes from. */
export function questionSource(
  p: Pick<ParameterJson, 'question_override' | 'polished_question' | 'polished_provider' | 'question_text'>,
): string {
  if (p.question_override) return 'Your wording';
  if (p.polished_question && p.polished_question === p.question_text) {
    return p.polished_provider === 'llm' ? 'Polished by the language model' : 'Polished (built-in wording)';
  }
  return 'Default wording (polishing pending)';
}
