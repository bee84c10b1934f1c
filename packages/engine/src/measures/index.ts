export { POPULATION_CODES, prepareMeasure, scaleOf } from './evaluate';
export type { MeasureModel, MeasureOutcome, PopulationCode, PreparedMeasure, RecordCoverage } from './evaluate';
