import { Body, Controller, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type FhirBundleResponseJson } from '@cds/contracts';
import { Roles } from '../../common/auth-user';
import { ContractResponse } from '../../common/contract-response';
import { FhirJsonInterceptor } from '../../common/fhir-json.interceptor';
import { BundleBodyPipe } from './bundle-body.pipe';
import type { BundleBody } from './bundle-entries';
import { RecordsService } from './records.service';

@ApiTags('records')
@ApiBearerAuth()
@UseInterceptors(FhirJsonInterceptor)
@Roles(...ADMIN_ROLES)
@Controller('fhir')
export class RecordsController {
  constructor(private readonly records: RecordsService) {}

  // The body is a FHIR Bundle: its shape is checked by the pipe, each resource against FHIR R4's StructureDefinitions by the service.
  @ContractResponse('FhirBundleResponseJson', { contentType: 'application/fhir+json' })
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Stores a FHIR R4 Bundle's resources by resourceType/id (batch, transaction or collection): a batch-response or transaction-response, one entry per input; an invalid resource is a 400 entry with an OperationOutcome, and makes a transaction store nothing (400 invalid_fhir_resource)",
  })
  store(@Body(BundleBodyPipe) body: BundleBody): Promise<FhirBundleResponseJson> {
    return this.records.storeBundle(body);
  }
}
