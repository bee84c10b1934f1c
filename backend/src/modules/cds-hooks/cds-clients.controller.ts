import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ADMIN_ROLES, type CdsClientJson } from '@cds/contracts';
import { Roles } from '../../common/auth-user';
import { ContractResponse } from '../../common/contract-response';
import { Page } from '../../common/pagination';
import { ReadOnlyEchoInterceptor } from '../../common/read-only-echo.interceptor';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { CdsClientDto } from './cds-client.dto';
import { CdsClientsService } from './cds-clients.service';

@ApiTags('cds-clients')
@ApiBearerAuth()
@Roles(...ADMIN_ROLES)
@Controller('cds-clients')
@UseInterceptors(ReadOnlyEchoInterceptor)
export class CdsClientsController {
  constructor(private readonly clients: CdsClientsService) {}

  @ContractResponse('CdsClientJson', { array: true })
  @Get()
  @ApiOperation({ summary: 'The registered CDS clients (EHRs allowed to call the CDS Hooks services)' })
  async list(): Promise<Page<CdsClientJson>> {
    // A handful of EHRs: the whole list is one page.
    const items = await this.clients.list();
    return new Page('cds-clients', items, items.length, 0);
  }

  @ContractResponse('CdsClientJson')
  @Get(':id')
  get(@Param('id', ParseIdPipe) id: string): Promise<CdsClientJson> {
    return this.clients.get(id);
  }

  @ContractResponse('CdsClientJson')
  @Post()
  @ApiOperation({ summary: 'Register a CDS client { issuer, name, jwks_url | jwk, allowed_services, is_active? }' })
  create(@Body() body: CdsClientDto): Promise<CdsClientJson> {
    return this.clients.create(body);
  }

  @ContractResponse('CdsClientJson')
  @Put(':id')
  update(@Param('id', ParseIdPipe) id: string, @Body() body: CdsClientDto): Promise<CdsClientJson> {
    return this.clients.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', ParseIdPipe) id: string) {
    await this.clients.remove(id);
  }
}
