export { MeasureVersionsModule } from './measure-versions.module';
export { MeasureVersionsRepository, type MeasureVersionRow } from './measure-versions.repository';
export { PublishedMeasures } from './published-measures';
