import { Injectable } from '@nestjs/common';
import type { ActivityItemJson } from '@cds/contracts';
import { ListQuery, Page } from '../../common/pagination';
import { ActivityRepository } from './activity.repository';

@Injectable()
export class ActivityService {
  constructor(private readonly repo: ActivityRepository) {}

  async list(q: ListQuery): Promise<Page<ActivityItemJson>> {
    const type = typeof q.filter.type === 'string' ? q.filter.type : null;
    const { rows, total } = await this.repo.page(type, q.limit, q.offset);
    return new Page(
      'activity',
      rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() })),
      total,
      q.offset,
    );
  }
}
