import { Breadcrumb, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { AuditHistory } from '../../../components/resource/audit-history';

/** One record's history (`/settings/audit-log/:entity/:id`), oldest change first. */
export default function AuditRecordPage() {
  const { t } = useTranslation();
  const { entity = '', id = '' } = useParams();
  return (
    <div>
      <Breadcrumb
        style={{ marginBottom: 8 }}
        items={[
          { title: <Link to="/settings/audit-log">{t('resources.audit_log.title')}</Link> },
          { title: `${entity} #${id}` },
        ]}
      />
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        {t('settings.audit.recordTitle', { entity, id })}
      </Typography.Title>
      <AuditHistory entity={entity} id={Number(id)} />
    </div>
  );
}
