import type { Trx } from '../../db/knex';

export interface AuditRow {
  actor_type: string;
  actor_id: number | null;
  action: string;
  entity: string | null;
  entity_id: number | null;
  changes: string | null;
  ip: string | null;
  request_id: string | null;
  created_at: string;
}

export const auditRepository = {
  async insert(db: Trx, row: AuditRow): Promise<void> {
    await db('audit_logs').insert(row);
  },
};
