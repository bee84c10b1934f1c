import { Controller, Get, Inject, OnModuleDestroy, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Public } from '../auth/auth-user';

type Check = 'up' | 'down';

@ApiTags('operations')
@Controller('health')
export class HealthController implements OnModuleDestroy {
  private redis?: Redis;

  constructor(@InjectDataSource() private readonly db: DataSource, @Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Public() @Get()
  @ApiOperation({ summary: 'Database and queue reachability: 200 when both are up, 503 otherwise' })
  async health(@Res({ passthrough: true }) res: Response) {
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
    if (!this.config.redisUrl) return 'up'; // the in-process runner lives in this process
    this.redis ??= new Redis(this.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    try {
      if (this.redis.status === 'wait') await withTimeout(this.redis.connect(), 2000);
      return (await withTimeout(this.redis.ping(), 2000)) === 'PONG' ? 'up' : 'down';
    } catch {
      return 'down';
    }
  }

  async onModuleDestroy() {
    this.redis?.disconnect();
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
