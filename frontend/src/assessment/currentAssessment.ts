/** The assessment in progress survives a reload of this tab (cleared at sign-out). */
export const CURRENT_ASSESSMENT_KEY = 'cds.assessment.current';

export function rememberCurrentAssessment(id: string | null) {
  try {
    if (id) sessionStorage.setItem(CURRENT_ASSESSMENT_KEY, id);
    else sessionStorage.removeItem(CURRENT_ASSESSMENT_KEY);
  } catch {
    /* storage unavailable: nothing to resume later */
  }
}

export function recalledCurrentAssessment(): string | null {
  try {
    return sessionStorage.getItem(CURRENT_ASSESSMENT_KEY);
  } catch {
    return null;
  }
}
