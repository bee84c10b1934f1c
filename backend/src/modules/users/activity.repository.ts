import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ActivityItemJson } from '@cds/contracts';
import { DataSource } from 'typeorm';
import type { Stored } from '../../common/stored';

export type ActivityRow = Stored<ActivityItemJson, 'at'>;

/** The admin overview's feed, read from the records themselves (nothing extra to keep in sync). */
const FEED = `
  SELECT 'signup:' || u.id AS id, 'signup' AS type, u.created_at AS at, NULL AS actor_email, u.email AS subject_email,
         u.email || ' signed up' AS summary
    FROM users u
  UNION ALL
  SELECT 'request:' || a.id, 'access_requested', a.created_at, u.email, u.email,
         u.email || ' requested ' || CASE a.requested_role WHEN 'pcp' THEN 'PCP' ELSE a.requested_role END || ' access'
    FROM user_approvals a JOIN users u ON u.id = a.user_id
  UNION ALL
  SELECT 'decision:' || a.id, 'approval_' || a.status, a.decided_at, d.email, u.email,
         coalesce(d.email, 'An administrator') || ' ' || a.status || ' ' ||
         CASE a.requested_role WHEN 'pcp' THEN 'PCP' ELSE a.requested_role END || ' access for ' || u.email
    FROM user_approvals a JOIN users u ON u.id = a.user_id LEFT JOIN users d ON d.id = a.decided_by
   WHERE a.decided_at IS NOT NULL
  UNION ALL
  SELECT 'publish:' || v.id, 'rule_set_published', v.published_at, p.email, NULL,
         coalesce(p.email, 'An administrator') || ' published "' || s.name || '" version ' || v.number
    FROM rule_set_versions v JOIN rule_sets s ON s.id = v.rule_set_id LEFT JOIN users p ON p.id = v.published_by
  UNION ALL
  SELECT 'invite:' || i.id, 'invitation_accepted', i.accepted_at, NULL, i.email, i.email || ' accepted an invitation'
    FROM invitations i WHERE i.accepted_at IS NOT NULL`;

/** The activity feed: hand-written SQL, since a UNION ALL over five tables is clearer as SQL than as a builder. */
@Injectable()
export class ActivityRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Newest first; `type` narrows to one kind of event. */
  async page(type: string | null, limit: number, offset: number): Promise<{ rows: ActivityRow[]; total: number }> {
    const where = type ? 'WHERE f.type = $3' : '';
    const params: unknown[] = [limit, offset, ...(type ? [type] : [])];
    const rows: ActivityRow[] = await this.db.query(
      `SELECT f.* FROM (${FEED}) f ${where} ORDER BY f.at DESC, f.id LIMIT $1 OFFSET $2`,
      params,
    );
    const [{ n }]: { n: number }[] = await this.db.query(
      `SELECT count(*)::int AS n FROM (${FEED}) f ${type ? 'WHERE f.type = $1' : ''}`,
      type ? [type] : [],
    );
    return { rows, total: n };
  }
}
