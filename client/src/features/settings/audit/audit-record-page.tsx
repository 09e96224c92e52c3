import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { AuditHistory, auditEntityLabel } from '../../../components/resource/audit-history';
import { PageHeader } from '../../../components/layout/page-header';

/** One record's history (`/settings/audit-log/:entity/:id`), oldest change first. */
export default function AuditRecordPage() {
  const { t } = useTranslation();
  const { entity = '', id = '' } = useParams();
  // the kind of record in the interface language (a holiday: 假期), its code only when it has no name
  const kind = auditEntityLabel(entity, t);
  return (
    <div>
      <PageHeader
        title={t('settings.audit.recordTitle', { entity: kind, id })}
        crumbs={[
          { title: t('resources.audit_log.title'), to: '/settings/audit-log' },
          { title: `${kind} #${id}` },
        ]}
      />
      <AuditHistory entity={entity} id={Number(id)} />
    </div>
  );
}
