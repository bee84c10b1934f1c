export { RecordsModule } from './records.module';
export { RecordsRepository } from './records.repository';
export { shippedValueSets } from './shipped-value-sets';
export { ValueSets } from './value-sets';
export { nameOfPatient } from './patient-name';
export { RecordImportsRunner } from './imports/record-imports.runner';
export { RecordImportsService } from './imports/record-imports.service';
export { codesOf } from './value-set-codes';
