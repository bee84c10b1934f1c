export { POPULATION_CODES, prepareMeasure, scaleOf } from './evaluate';
export type { MeasureEvaluationOptions, MeasureModel, MeasureOutcome, PopulationCode, PreparedMeasure, RecordCoverage } from './evaluate';
