import { Checkbox, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MODULES } from '../../../../shared/permissions';

/** Token abilities: a subset of the user's own permission keys, grouped by module. */
export function AbilityPicker({
  available,
  value = [],
  onChange,
}: {
  available: readonly string[];
  value?: string[];
  onChange?: (value: string[]) => void;
}) {
  const { t } = useTranslation();
  const chosen = new Set(value);
  const toggle = (key: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(key);
    else next.delete(key);
    onChange?.(available.filter((k) => next.has(k)));
  };
  const groups = MODULES.map((m) => ({
    module: m,
    keys: available.filter((k) => k.startsWith(`${m}.`)),
  })).filter((g) => g.keys.length > 0);
  if (groups.length === 0)
    return <Typography.Text type="secondary">{t('apiTokens.noAbilities')}</Typography.Text>;
  return (
    <div data-testid="ability-picker">
      {groups.map((g) => (
        <div key={g.module} style={{ marginBottom: 6 }}>
          <Typography.Text strong style={{ display: 'inline-block', minWidth: 160 }}>
            {t(`permissions.modules.${g.module}`)}
          </Typography.Text>
          {g.keys.map((key) => (
            <Checkbox key={key} checked={chosen.has(key)} onChange={(e) => toggle(key, e.target.checked)}>
              <span data-ability={key}>{t(`permissions.actions.${key.split('.')[1]}`)}</span>
            </Checkbox>
          ))}
        </div>
      ))}
    </div>
  );
}
