/** The CDS Hooks services this app offers (service id = hook name for now); one list, in @cds/contracts. */
export { CDS_SERVICE_IDS } from '@cds/contracts';
