import { LeftOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons';
import { Alert, Button, Segmented, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { CalendarFeed, CalendarType } from '../../../../shared/calendar';
import { can } from '../../../../shared/permissions';
import { useAppSelector } from '../../app/hooks';
import type { User } from '../../app/types';
import { useLookupChoicesQuery } from '../../components/resource/declared-api';
import { LookupSelect } from '../../components/resource/from-declaration';
import { currentLocale } from '../../i18n/i18n';
import { calendarSearch, monthStart, monthTitle, type CalendarState } from './calendar-query';
import { SourceFilter } from './source-filter';
import { ButtonLink } from '../../components/layout/button-link';

/** The path of each view; the switch between them keeps the query string (date and filters). */
export const CALENDAR_PATHS: Record<CalendarType, string> = { basic: '/calendar', list: '/calendar/list' };

/** Where "New entry" goes: the declared form of a staff calendar entry. */
export const NEW_ENTRY_PATH = '/calendar/events/create';

/** Whether a user sees every branch (admin, or a role of data scope `all`) and so may pick one. */
export function seesAllBranches(user: User | null): boolean {
  return Boolean(user && (user.is_admin || user.role?.data_scope === 'all'));
}

export interface CalendarToolbarProps {
  type: CalendarType;
  state: CalendarState;
  /** today in Hong Kong, `YYYY-MM-DD` */
  today: string;
  /** the sources the caller may see (the legend); empty until the first answer */
  sources: CalendarFeed['sources'];
  /** a refusal to show (a 422's message), or null */
  error: string | null;
  onChange: (next: CalendarState) => void;
}

/** The chosen branch's name when the screen opens on one (the picker names a choice once it has read it). */
function useBranchName(branchId: number | null, skip: boolean): string | null {
  const { data } = useLookupChoicesQuery({ path: '/branches', q: '' }, { skip: skip || branchId === null });
  return data?.find((choice) => choice.id === branchId)?.label ?? null;
}

/**
 * The calendar's own toolbar, shared by the month and the list views: previous / today / next month, the month's
 * title in the user's language, the month ↔ list switch, the branch picker (callers who see every branch), "New
 * entry" (calendar.create), and the sources as coloured toggles that are the legend too. A refused request is said
 * here; the calendar stays.
 */
export function CalendarToolbar({ type, state, today, sources, error, onChange }: CalendarToolbarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.app.user);
  const allBranches = seesAllBranches(user);
  const branchName = useBranchName(state.branchId, !allBranches);
  const lang = currentLocale();

  return (
    <div className="calendar-toolbar" role="toolbar" aria-label={t('calendar.toolbar')}>
      <div className="calendar-toolbar-row">
        <Space.Compact>
          <Button
            icon={<LeftOutlined />}
            aria-label={t('calendar.prev')}
            title={t('calendar.prev')}
            data-testid="calendar-prev"
            onClick={() => onChange({ ...state, date: monthStart(state.date, -1) })}
          />
          <Button
            data-testid="calendar-today"
            disabled={monthStart(state.date) === monthStart(today) && state.date === today}
            onClick={() => onChange({ ...state, date: today })}
          >
            {t('calendar.today')}
          </Button>
          <Button
            icon={<RightOutlined />}
            aria-label={t('calendar.next')}
            title={t('calendar.next')}
            data-testid="calendar-next"
            onClick={() => onChange({ ...state, date: monthStart(state.date, 1) })}
          />
        </Space.Compact>
        <Typography.Title
          level={2}
          className="calendar-title"
          data-testid="calendar-title"
          aria-live="polite"
        >
          {monthTitle(state.date, lang)}
        </Typography.Title>
        <Space wrap className="calendar-toolbar-end">
          <Segmented<CalendarType>
            aria-label={t('calendar.view')}
            data-testid="calendar-view-switch"
            value={type}
            options={[
              { value: 'basic', label: t('calendar.views.month') },
              { value: 'list', label: t('calendar.views.list') },
            ]}
            onChange={(next) => navigate(`${CALENDAR_PATHS[next]}${calendarSearch(state)}`)}
          />
          {allBranches && (
            <LookupSelect
              resource="branch"
              value={state.branchId}
              initialLabel={branchName}
              onChange={(branchId) => onChange({ ...state, branchId: branchId ?? null })}
              placeholder={t('calendar.allBranches')}
              ariaLabel={t('calendar.branch')}
              width={200}
            />
          )}
          {can(user, 'calendar.create') && (
            <ButtonLink
              to={NEW_ENTRY_PATH}
              type="primary"
              icon={<PlusOutlined />}
              data-testid="calendar-new-entry"
            >
              {t('calendar.newEntry')}
            </ButtonLink>
          )}
        </Space>
      </div>
      <SourceFilter
        sources={sources}
        value={state.sources}
        onChange={(next) => onChange({ ...state, sources: next })}
      />
      {error && <Alert type="error" showIcon role="alert" data-testid="calendar-error" title={error} />}
    </div>
  );
}
