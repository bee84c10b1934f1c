export { RecordsModule } from './records.module';
export { RecordsRepository } from './records.repository';
