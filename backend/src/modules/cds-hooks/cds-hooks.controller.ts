import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { HttpRequest as Request } from '../../http/request';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { CurrentUser, type AuthUser } from '../../common/auth-user';
import {
  ADMIN_ROLES,
  CLINICAL_ROLES,
  type CdsClientJson,
  type CdsFeedbackAckJson,
  type CdsHookResponseJson,
  type CdsPrefillJson,
  type CdsServicesJson,
} from '@cds/contracts';
import { ContractBody, ContractResponse } from '../../common/contract-response';
import { Page } from '../../common/pagination';
import { ParseIdPipe } from '../../common/uuid.pipe';
import { Public, Roles } from '../../common/auth-user';
import { ReadOnlyEchoInterceptor } from '../../common/read-only-echo.interceptor';
import { CdsClientDto } from './cds-clients.dto';
import { CdsClientsService } from './cds-clients.service';
import { ClientJwtVerifier } from './client-jwt';
import { parseFeedback } from './feedback';
import { CardFeedback } from './card-feedback';
import { PATIENT_VIEW, PatientViewService, unknownService } from './patient-view.service';
import { RedeemPrefillDto } from './prefill.dto';
import { linkOrigin, serviceOrigins } from './service-origins';
import { PrefillTickets } from './prefill-tickets';

/**
 * CDS Hooks 2.0 (base URL = this app's /api). Discovery is public: it names the services and the
 * data they prefetch, nothing about patients. A service call needs a registered client's JWT.
 */
@ApiTags('cds-hooks')
@Public()
@Controller('cds-services')
export class CdsServicesController {
  constructor(
    private readonly patientView: PatientViewService,
    private readonly jwt: ClientJwtVerifier,
    private readonly cardFeedback: CardFeedback,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ContractResponse('CdsServicesJson')
  @Get()
  @ApiOperation({ summary: 'CDS Hooks discovery: the services offered and their prefetch templates' })
  async discovery(): Promise<CdsServicesJson> {
    return { services: [await this.patientView.describe()] };
  }

  @ContractResponse('CdsHookResponseJson')
  @ContractBody('CdsHookRequestJson')
  @Post(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Call a CDS service with a hook request (client JWT in Authorization); answers { cards }' })
  async call(@Param('id') id: string, @Req() req: Request, @Body() body: unknown): Promise<CdsHookResponseJson> {
    const { origins, links } = this.origins(req);
    const path = req.originalUrl.split('?')[0];
    return this.patientView.call(
      req.headers.authorization,
      id,
      origins.map((o) => `${o}${path}`),
      body,
      links,
    );
  }

  @ContractResponse('CdsFeedbackAckJson')
  @ContractBody('CdsFeedbackRequestJson')
  @Post(':id/feedback')
  @HttpCode(200)
  @ApiOperation({
    summary: 'CDS Hooks feedback on returned cards { feedback: [{ card, outcome, overrideReason?, outcomeTimestamp }] } (client JWT)',
  })
  async feedback(@Param('id') id: string, @Req() req: Request, @Body() body: unknown): Promise<CdsFeedbackAckJson> {
    const path = req.originalUrl.split('?')[0];
    // aud: the service URL (as the spec reads), or the feedback URL itself.
    const audiences = this.origins(req).origins.flatMap((o) => [`${o}${path.replace(/\/feedback$/, '')}`, `${o}${path}`]);
    const caller = await this.jwt.verifyOnce(req.headers.authorization, id, audiences);
    if (id !== PATIENT_VIEW) throw unknownService(id);
    await this.cardFeedback.record(caller.issuer, id, parseFeedback(body));
    return {};
  }

  /** The origins a client JWT's aud may name, and the one card links use (never a client-chosen Host). */
  private origins(req: Request): { origins: string[]; links: string } {
    const origins = serviceOrigins(this.config, req.socket.localPort ?? this.config.port);
    return { origins, links: linkOrigin(origins, req.host ? `${req.protocol}://${req.host}` : undefined) };
  }
}

/** A card's link opens /clinical-form with a ticket; the signed-in clinician redeems it here, once. */
@ApiTags('cds-hooks')
@ApiBearerAuth()
@Roles(...CLINICAL_ROLES)
@Controller('cds-prefill')
export class CdsPrefillController {
  constructor(private readonly tickets: PrefillTickets) {}

  @ContractResponse('CdsPrefillJson')
  @Post('redeem')
  @HttpCode(200)
  @ApiOperation({ summary: "Redeem a card link's one-time prefill ticket { ticket } → { values, issued_at }; 410 when used or expired" })
  redeem(@CurrentUser() user: AuthUser, @Body() body: RedeemPrefillDto): Promise<CdsPrefillJson> {
    return this.tickets.redeem(body.ticket, user.id);
  }
}

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
