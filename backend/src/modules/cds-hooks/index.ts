export { CdsHooksModule } from './cds-hooks.module';
export { RecordPrefill } from './record-prefill.service';
