import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../../../../shared/features';
import { setLocale } from '../../i18n/i18n';

/**
 * Switches between English and Traditional Chinese; the choice is kept in local storage, and handed to `onChange`
 * (the portal keeps it in the student's profile too).
 */
export function LanguageSwitch({
  onChange,
  compact = false,
}: {
  onChange?: (locale: Locale) => void;
  /** the globe alone (a phone's top bar), named for screen readers */
  compact?: boolean;
} = {}) {
  const { t, i18n } = useTranslation();
  const current = (i18n.language === 'en' ? 'en' : 'zh_HK') as Locale;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LOCALES.map((locale) => ({ key: locale, label: t(`language.${locale}`) })),
        onClick: ({ key }) => {
          setLocale(key as Locale);
          onChange?.(key as Locale);
        },
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        // the globe alone is named; with the language shown, that name is what is read (and matches the text)
        aria-label={compact ? t('language.label') : undefined}
        title={t('language.label')}
        data-testid="language-switch"
      >
        {compact ? null : t(`language.${current}`)}
      </Button>
    </Dropdown>
  );
}
