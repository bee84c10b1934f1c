import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { HealthJson } from '@cds/contracts';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Public } from '../../common/auth-user';
import { PolishService } from '../polish';
import { ContractResponse } from '../../common/contract-response';

type Check = 'up' | 'down';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly polish: PolishService,
  ) {}

  @Public()
  @ContractResponse('HealthJson')
  @Get()
  @ApiOperation({ summary: 'Database and queue reachability: 200 when both are up, 503 otherwise' })
  async health(@Res({ passthrough: true }) res: { status(code: number): unknown }): Promise<HealthJson> {
    const [database, queue] = await Promise.all([this.database(), this.queue()]);
    const ok = database === 'up' && queue === 'up';
    res.status(ok ? 200 : 503);
    return {
      status: ok ? 'ok' : 'degraded',
      database,
      queue,
      mode: { database: this.config.databaseMode, queue: this.config.redisUrl ? 'redis' : 'in-process' },
      version: this.config.version,
    };
  }

  private async database(): Promise<Check> {
    try {
      await withTimeout(this.db.query('SELECT 1'), 2000);
      return 'up';
    } catch {
      return 'down';
    }
  }

  private async queue(): Promise<Check> {
    return (await this.polish.queueHealthy().catch(() => false)) ? 'up' : 'down';
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
