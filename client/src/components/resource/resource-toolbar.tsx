import { useCallback, useState, type ReactNode } from 'react';
import { ClearOutlined, ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Popover, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/hooks';
import { readJson, writeJson } from '../../app/storage';
import { PageHeader } from '../layout/page-header';

/** The table's row height: antd's sizes (`large` is antd's default). */
export type Density = 'large' | 'middle' | 'small';
const DENSITIES: { key: Density; labelKey: string }[] = [
  { key: 'large', labelKey: 'resource.toolbar.densityDefault' },
  { key: 'middle', labelKey: 'resource.toolbar.densityMiddle' },
  { key: 'small', labelKey: 'resource.toolbar.densitySmall' },
];

/** What a user chose for a list: hidden columns and density. */
export interface TableSettings {
  hidden: string[];
  density: Density;
}

export const DEFAULT_TABLE_SETTINGS: TableSettings = { hidden: [], density: 'middle' };

/** The browser-storage key of a list's settings: per user and per list. */
export function tableSettingsKey(userId: number | null | undefined, list: string): string {
  return `resource-table:${userId ?? 0}:${list}`;
}

function readSettings(key: string): TableSettings {
  const stored = readJson<Partial<TableSettings>>(key);
  const hidden = Array.isArray(stored?.hidden) ? stored.hidden.filter((k) => typeof k === 'string') : [];
  const density = DENSITIES.some((d) => d.key === stored?.density)
    ? (stored!.density as Density)
    : DEFAULT_TABLE_SETTINGS.density;
  return { hidden, density };
}

/** A list's column and density settings, remembered in the browser per signed-in user and list. */
export function useTableSettings(list: string): [TableSettings, (next: TableSettings) => void] {
  const userId = useAppSelector((s) => s.app.user?.id);
  const key = tableSettingsKey(userId, list);
  const [state, setState] = useState(() => ({ key, settings: readSettings(key) }));
  const settings = state.key === key ? state.settings : readSettings(key);
  const update = useCallback(
    (next: TableSettings) => {
      writeJson(key, next);
      setState({ key, settings: next });
    },
    [key],
  );
  return [settings, update];
}

export interface ResourceToolbarProps {
  /** left side: the list's title (none when embedded) */
  title?: ReactNode;
  /** right side, before the settings: the list's own buttons (create, export, import …) */
  actions?: ReactNode;
  /** the columns that may be hidden, with their titles */
  columns: { key: string; title: ReactNode }[];
  settings: TableSettings;
  onSettingsChange: (next: TableSettings) => void;
  onRefresh: () => void;
  onReset: () => void;
  /** whether a search, filter or sort is set (reset does something) */
  filtered: boolean;
}

/**
 * The toolbar over every list (ant-design-pro style): the title, the list's own buttons, then reset
 * filters, refresh, density and column settings. The page size and the total sit in the pagination.
 */
export function ResourceToolbar({
  title,
  actions,
  columns,
  settings,
  onSettingsChange,
  onRefresh,
  onReset,
  filtered,
}: ResourceToolbarProps) {
  const { t } = useTranslation();
  const visible = columns.filter((c) => !settings.hidden.includes(c.key)).map((c) => c.key);
  const columnPanel = (
    <div data-testid="resource-column-settings">
      <Checkbox
        checked={visible.length === columns.length}
        indeterminate={visible.length > 0 && visible.length < columns.length}
        onChange={(e) =>
          onSettingsChange({ ...settings, hidden: e.target.checked ? [] : columns.map((c) => c.key) })
        }
      >
        {t('resource.toolbar.allColumns')}
      </Checkbox>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 4, marginTop: 8 }}>
        {columns.map((column) => (
          <Checkbox
            key={column.key}
            checked={!settings.hidden.includes(column.key)}
            onChange={(e) =>
              onSettingsChange({
                ...settings,
                hidden: e.target.checked
                  ? settings.hidden.filter((k) => k !== column.key)
                  : [...settings.hidden, column.key],
              })
            }
          >
            {column.title}
          </Checkbox>
        ))}
      </div>
    </div>
  );
  const tools = (
    <Space wrap>
      {actions}
      <Tooltip title={t('resource.toolbar.reset')}>
        <Button
          icon={<ClearOutlined />}
          aria-label={t('resource.toolbar.reset')}
          data-testid="resource-reset"
          disabled={!filtered}
          onClick={onReset}
        />
      </Tooltip>
      <Tooltip title={t('resource.toolbar.refresh')}>
        <Button
          icon={<ReloadOutlined />}
          aria-label={t('resource.toolbar.refresh')}
          data-testid="resource-refresh"
          onClick={onRefresh}
        />
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{
          selectable: true,
          selectedKeys: [settings.density],
          items: DENSITIES.map((d) => ({ key: d.key, label: t(d.labelKey) })),
          onClick: ({ key }) => onSettingsChange({ ...settings, density: key as Density }),
        }}
      >
        <Button
          icon={<ColumnHeightOutlined />}
          aria-label={t('resource.toolbar.density')}
          data-testid="resource-density"
        />
      </Dropdown>
      <Popover
        trigger="click"
        placement="bottomRight"
        title={t('resource.toolbar.columns')}
        content={columnPanel}
      >
        <Button
          icon={<SettingOutlined />}
          aria-label={t('resource.toolbar.columns')}
          data-testid="resource-columns"
        />
      </Popover>
    </Space>
  );
  // a list screen's title is the page's header (breadcrumbs, its h1), the tools its actions
  if (typeof title === 'string')
    return (
      <div className="resource-toolbar" data-testid="resource-toolbar">
        <PageHeader title={title} extra={tools} />
      </div>
    );
  return (
    <div
      className="resource-toolbar"
      data-testid="resource-toolbar"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 8,
        alignItems: 'center',
        justifyContent: 'space-between',
        marginBottom: 16,
      }}
    >
      <div style={{ minWidth: 0 }}>{title}</div>
      {tools}
    </div>
  );
}
