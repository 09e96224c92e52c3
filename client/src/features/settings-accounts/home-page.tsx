import { useMemo } from 'react';
import { Alert, Card, Col, Empty, List, Row, Skeleton, Tag, Typography } from 'antd';
import { CalendarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CalendarEntry } from '../../../../shared/calendar';
import type { Locale } from '../../../../shared/features';
import { can } from '../../../../shared/permissions';
import { isApiError } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { buildMenu, type MenuLeaf } from '../../app/routes/menu';
import { ButtonLink } from '../../components/layout/button-link';
import { PageHeader } from '../../components/layout/page-header';
import { readRecent, recentTitle } from '../../components/resource/recent-records';
import { inBusinessTime } from '../../i18n/date-time';
import { useCalendarFeedQuery } from '../calendar/calendar-api';

/** How many recent records the start page lists (the whole 20 are behind the lists' "Recent" button). */
const RECENT_SHOWN = 8;

/** Today in Hong Kong and the day after (`YYYY-MM-DD`): the calendar feed's range for "today". */
export function todayRange(now: Date = new Date()): { start: string; end: string } {
  const today = inBusinessTime(now);
  return { start: today.format('YYYY-MM-DD'), end: today.add(1, 'day').format('YYYY-MM-DD') };
}

/** A card's heading: the page's `h2`s under its one `h1`, in the card title's size. */
function CardTitle({ children }: { children: string }) {
  return <h2 style={{ fontSize: 16, fontWeight: 600, margin: 0 }}>{children}</h2>;
}

/** An entry's time of day as the list shows it: `09:30` in Hong Kong, or "All day". */
function entryTime(entry: CalendarEntry, allDay: string): string {
  return entry.all_day ? allDay : inBusinessTime(entry.start).format('HH:mm');
}

/** What awaits the user today: the calendar feed of today (calendar.view), with the way to the calendar. */
function TodayCard({ language }: { language: Locale }) {
  const { t } = useTranslation();
  const { start, end } = useMemo(() => todayRange(), []);
  const { data, error, isLoading } = useCalendarFeedQuery({ type: 'list', start, end, lang: language });
  const failed = Boolean(error) && !(isApiError(error) && error.handled);
  return (
    <Card
      title={<CardTitle>{t('home.today')}</CardTitle>}
      extra={
        <ButtonLink to="/calendar" type="link" icon={<CalendarOutlined />}>
          {t('home.openCalendar')}
        </ButtonLink>
      }
      data-testid="home-today"
    >
      {isLoading ? (
        <Skeleton active title={false} paragraph={{ rows: 3 }} />
      ) : failed ? (
        <Alert type="error" showIcon role="alert" title={t('home.todayFailed')} />
      ) : (data?.items ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.todayEmpty')} />
      ) : (
        <List
          size="small"
          dataSource={data!.items}
          renderItem={(entry) => (
            <List.Item key={entry.id}>
              <span>
                <Tag color={entry.color}>{entryTime(entry, t('home.allDay'))}</Tag>
                {entry.url ? <Link to={entry.url}>{entry.title}</Link> : entry.title}
                {entry.detail && <Typography.Text type="secondary"> · {entry.detail}</Typography.Text>}
              </span>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

/**
 * /home, the staff's start page (where "Back to home" goes, and whoever may not see the calendar lands): a
 * greeting, what awaits the user today (the calendar's entries, with a link to it), the records and lists they
 * opened last (this user's, in the language shown) and shortcuts to every screen their role and the enabled
 * features allow (the menu's entries).
 */
export default function HomePage() {
  const { t, i18n } = useTranslation();
  const user = useAppSelector((s) => s.app.user);
  const features = useAppSelector((s) => s.app.features);
  const language: Locale = i18n.language === 'en' ? 'en' : 'zh_HK';
  const leaves = buildMenu(backofficeRoutes, user, features)
    .flatMap((node): MenuLeaf[] => ('children' in node ? node.children : [node]))
    .filter((leaf) => leaf.path !== '/home');
  const recent = useMemo(() => (user ? readRecent(user.id).slice(0, RECENT_SHOWN) : []), [user]);
  const seesCalendar = can(user, 'calendar.view');

  return (
    <div data-testid="home-page">
      <PageHeader title={t('home.welcome', { name: user?.name ?? '' })}>
        <Typography.Paragraph type="secondary">{t('home.help')}</Typography.Paragraph>
      </PageHeader>
      <Row gutter={[16, 16]}>
        {seesCalendar && (
          <Col xs={24} lg={14}>
            <TodayCard language={language} />
          </Col>
        )}
        <Col xs={24} lg={seesCalendar ? 10 : 24}>
          <Card title={<CardTitle>{t('home.recent')}</CardTitle>} data-testid="home-recent">
            {recent.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.recentEmpty')} />
            ) : (
              <List
                size="small"
                dataSource={recent}
                renderItem={(item) => (
                  <List.Item key={item.path}>
                    <Link to={item.path}>{recentTitle(item, language)}</Link>
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>
        <Col xs={24}>
          <Card title={<CardTitle>{t('home.shortcuts')}</CardTitle>}>
            <Row gutter={[12, 12]} data-testid="home-links">
              {leaves.map((leaf) => {
                const Icon = leaf.icon;
                return (
                  <Col key={leaf.key} xs={24} sm={12} md={8} lg={6}>
                    <ButtonLink to={leaf.path} block icon={Icon ? <Icon /> : undefined}>
                      {t(leaf.labelKey)}
                    </ButtonLink>
                  </Col>
                );
              })}
            </Row>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
