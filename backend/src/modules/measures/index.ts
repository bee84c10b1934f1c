export { MeasuresModule } from './measures.module';
export { MeasureRunsRunner } from './runs/measure-runs.runner';
