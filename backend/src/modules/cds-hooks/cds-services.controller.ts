import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CdsFeedbackAckJson, CdsHookResponseJson, CdsServicesJson } from '@cds/contracts';
import type { HttpRequest as Request } from '../../http/request';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Public } from '../../common/auth-user';
import { ContractBody, ContractResponse } from '../../common/contract-response';
import { CardFeedback } from './card-feedback';
import type { CheckedBody } from './checked-body';
import type { FeedbackItem } from './feedback';
import { FeedbackPipe } from './feedback.pipe';
import type { PatientViewRequest } from './hook-request';
import { HookRequestPipe } from './hook-request.pipe';
import { PatientViewService } from './patient-view.service';
import { linkOrigin, serviceOrigins } from './service-origins';

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
  async call(
    @Param('id') id: string,
    @Req() req: Request,
    @Body(HookRequestPipe) body: CheckedBody<PatientViewRequest>,
  ): Promise<CdsHookResponseJson> {
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
  async feedback(
    @Param('id') id: string,
    @Req() req: Request,
    @Body(FeedbackPipe) feedback: CheckedBody<FeedbackItem[]>,
  ): Promise<CdsFeedbackAckJson> {
    const path = req.originalUrl.split('?')[0];
    // aud: the service URL (as the spec reads), or the feedback URL itself.
    const audiences = this.origins(req).origins.flatMap((o) => [`${o}${path.replace(/\/feedback$/, '')}`, `${o}${path}`]);
    await this.cardFeedback.receive(req.headers.authorization, id, audiences, feedback);
    return {};
  }

  /** The origins a client JWT's aud may name, and the one card links use (never a client-chosen Host). */
  private origins(req: Request): { origins: string[]; links: string } {
    const origins = serviceOrigins(this.config, req.socket.localPort ?? this.config.port);
    return { origins, links: linkOrigin(origins, req.host ? `${req.protocol}://${req.host}` : undefined) };
  }
}
