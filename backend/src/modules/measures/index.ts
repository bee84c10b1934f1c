export { MeasuresModule } from './measures.module';
