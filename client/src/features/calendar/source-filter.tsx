import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CalendarFeed, CalendarSource } from '../../../../shared/calendar';
import { sourceShown, toggleSource } from './calendar-query';

export interface SourceFilterProps {
  /** the sources the caller may see, each with its colour (the feed's `sources`) */
  sources: CalendarFeed['sources'];
  /** the ones on; null: all */
  value: CalendarSource[] | null;
  onChange: (next: CalendarSource[] | null) => void;
}

/**
 * The legend and the source filter in one: a checkable tag per source in the source's colour (filled when its
 * entries are shown, outlined when hidden). Each is a toggle button (`aria-pressed`), so it works from the
 * keyboard and reads as on / off.
 */
export function SourceFilter({ sources, value, onChange }: SourceFilterProps) {
  const { t } = useTranslation();
  const visible = sources.map((source) => source.key);
  return (
    <div
      className="calendar-sources"
      role="group"
      aria-label={t('calendar.sourcesLabel')}
      data-testid="calendar-sources"
    >
      <Typography.Text type="secondary" title={t('calendar.sourcesHelp')}>
        {t('calendar.sourcesLabel')}
      </Typography.Text>
      {sources.map(({ key, color }) => {
        const shown = sourceShown(value, key);
        return (
          <button
            key={key}
            type="button"
            aria-pressed={shown}
            data-source={key}
            className={`calendar-source-tag${shown ? ' calendar-source-tag-on' : ''}`}
            style={{ ['--calendar-source-color' as string]: color }}
            onClick={() => onChange(toggleSource(value, key, visible))}
          >
            <span className="calendar-source-swatch" aria-hidden />
            {t(`calendar.sources.${key}`)}
          </button>
        );
      })}
    </div>
  );
}
