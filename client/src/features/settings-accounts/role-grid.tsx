import { Checkbox, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CRUD_ACTIONS,
  EXTRA_ACTIONS,
  MODULES,
  PERMISSIONS,
  can,
  moduleActions,
  type Module,
} from '../../../../shared/permissions';
import { useAppSelector } from '../../app/hooks';

interface Row {
  module: Module;
}

/**
 * The role editor's module × action grid of permission keys (shared/permissions.ts): a row per module, a
 * column per CRUD action (empty for a module without them: the reports) and one for the module's own extra actions. A key the editing user does not hold
 * is shown but cannot be granted (the server refuses it too), unless the user is an admin.
 */
export function RoleGrid({
  value = [],
  onChange,
  disabled = false,
}: {
  value?: string[];
  onChange?: (value: string[]) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.app.user);
  const chosen = new Set(value);
  const grantable = (key: string) => !disabled && can(user, key);

  const set = (keys: string[], on: boolean) => {
    const next = new Set(chosen);
    for (const key of keys) {
      if (!on) next.delete(key);
      else if (grantable(key)) next.add(key);
    }
    onChange?.(PERMISSIONS.filter((p) => next.has(p)));
  };

  const cell = (module: Module, action: string) => {
    const key = `${module}.${action}`;
    const label = `${t(`permissions.modules.${module}`)} – ${t(`permissions.actions.${action}`)}`;
    return (
      <Checkbox
        key={key}
        checked={chosen.has(key)}
        disabled={!grantable(key) && !chosen.has(key)}
        aria-label={label}
        data-permission={key}
        onChange={(e) => set([key], e.target.checked)}
      >
        {CRUD_ACTIONS.includes(action as (typeof CRUD_ACTIONS)[number])
          ? null
          : t(`permissions.actions.${action}`)}
      </Checkbox>
    );
  };

  const keysOf = (module: Module) => moduleActions(module).map((a) => `${module}.${a}`);

  return (
    <Table<Row>
      data-testid="role-grid"
      rowKey="module"
      size="small"
      pagination={false}
      scroll={{ x: true }}
      dataSource={MODULES.map((module) => ({ module }))}
      columns={[
        {
          title: t('permissions.module'),
          key: 'module',
          render: (_v, { module }) => {
            const keys = keysOf(module);
            const all = keys.every((k) => chosen.has(k));
            const some = keys.some((k) => chosen.has(k));
            return (
              <Checkbox
                checked={all}
                indeterminate={some && !all}
                disabled={disabled}
                aria-label={t('permissions.allOf', { module: t(`permissions.modules.${module}`) })}
                onChange={(e) => set(keys, e.target.checked)}
              >
                <Typography.Text strong>{t(`permissions.modules.${module}`)}</Typography.Text>
              </Checkbox>
            );
          },
        },
        ...CRUD_ACTIONS.map((action) => ({
          title: t(`permissions.actions.${action}`),
          key: action,
          align: 'center' as const,
          // a module without this action (the reports have no CRUD) has an empty cell
          render: (_v: unknown, { module }: Row) =>
            moduleActions(module).includes(action) ? cell(module, action) : null,
        })),
        {
          title: t('permissions.other'),
          key: 'other',
          render: (_v, { module }) => (EXTRA_ACTIONS[module] ?? []).map((action) => cell(module, action)),
        },
      ]}
    />
  );
}
