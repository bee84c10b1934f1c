/**
 * Units are stored as UCUM codes and shown to people in their usual form. The table lives in the
 * engine (which labels bands with it); re-exported here so the server's labels and the web app's agree.
 */
export { unitDisplay } from '@cds/engine';

/**
 * The keys of a numeric parameter's `validation_rules` that the assessment reads (all optional):
 * - `min`, `max`: plausible limits in the parameter's unit, inclusive; a value outside is 422 `out_of_range`;
 * - `decimals`: decimal places accepted; also the precision of gap checks and boundary vignettes;
 * - `units_accepted`: other UCUM units a value may be typed in; value in the parameter's unit =
 *   value × factor + offset (fasting glucose: mmol/L × 18; HbA1c: mmol/mol × 0.09148 + 2.152), or,
 *   with `equivalents`, straight through the cut-points the guideline publishes in both units
 *   (engine `toParameterUnit`);
 * - `source`: the citation shown with findings that use the parameter's template.
 */
export interface NumericValidationRules {
  min?: number;
  max?: number;
  decimals?: number;
  units_accepted?: UnitConversionJson[];
  source?: string;
}

export interface UnitConversionJson {
  code: string;
  factor: number;
  offset?: number;
  /**
   * Pairs [value in this unit, value in the parameter's unit] the guideline publishes as one
   * cut-point (ADA: [48, 6.5] mmol/mol ↔ %), increasing in both columns: the conversion runs through
   * them, so each value is on the same side of a cut-point in either unit.
   */
  equivalents?: [number, number][];
}
