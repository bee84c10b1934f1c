import { CdsCardIssued } from './cds-card-issued.entity';
import { CdsClient } from './cds-client.entity';
import { CdsFeedback } from './cds-feedback.entity';
import { CdsPrefillTicket } from './cds-prefill-ticket.entity';
import { CdsRecordContext } from './cds-record-context.entity';
import { CdsSeenJti } from './cds-seen-jti.entity';

/** The CDS Hooks module's tables, one entity per file. */
export const CDS_HOOKS_ENTITIES = [CdsClient, CdsSeenJti, CdsPrefillTicket, CdsRecordContext, CdsCardIssued, CdsFeedback];
