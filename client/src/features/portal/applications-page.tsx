import { Card, Empty, Space, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDate } from '../../components/resource/renderers';
import { ApplicationStatusTag } from '../students/student-tags';
import { applicationName, localName, rowsOf } from './portal-api';
import { PortalPage, useRouteData, useSyncSubmission } from './portal-page';

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/**
 * Applications (`/application`, data `GET /api/application`): each application by its school, intake and subject,
 * its status, its deadline and its intake's timetable, and the way to its documents.
 */
export default function ApplicationsPage() {
  const { t, i18n } = useTranslation();
  const data = useRouteData();
  useSyncSubmission(data);
  const apps = rowsOf(data, 'applications');

  return (
    <PortalPage
      title={t('portal.applications.title')}
      intro={<Typography.Paragraph type="secondary">{t('portal.applications.intro')}</Typography.Paragraph>}
    >
      {apps.length === 0 && (
        <Empty description={t('portal.applications.empty')}>
          <Link to="/select-application">{t('portal.applications.choose')}</Link>
        </Empty>
      )}
      {apps.map((app) => {
        const timetable = rowsOf(app, 'timetable');
        return (
          <Card
            key={str(app.id)}
            title={<h2 className="portal-card-title">{applicationName(app, i18n.language)}</h2>}
            style={{ marginBottom: 16 }}
            data-testid="application"
          >
            <Space orientation="vertical" size={8} style={{ width: '100%' }}>
              <Space wrap>
                <ApplicationStatusTag value={app.status} />
              </Space>
              {app.application_deadline ? (
                <Typography.Text>
                  {t('portal.select.deadline', { date: formatDate(str(app.application_deadline)) })}
                </Typography.Text>
              ) : null}
              {timetable.length > 0 && (
                <>
                  <Typography.Title level={3} style={{ fontSize: 16, marginTop: 8 }}>
                    {t('portal.applications.timetable')}
                  </Typography.Title>
                  <Timeline
                    items={timetable.map((row, i) => ({
                      key: i,
                      content: (
                        <span>
                          <Typography.Text strong>{formatDate(str(row.date))}</Typography.Text>{' '}
                          {localName(row, 'title', i18n.language)}
                        </span>
                      ),
                    }))}
                  />
                </>
              )}
              <Link to="/document">{t('portal.applications.documents')}</Link>
            </Space>
          </Card>
        );
      })}
    </PortalPage>
  );
}
