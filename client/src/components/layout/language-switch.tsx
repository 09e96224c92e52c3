import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../../../../shared/features';
import { setLocale } from '../../i18n/i18n';

/** Switches between English and Traditional Chinese; the choice is kept in local storage. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = (i18n.language === 'en' ? 'en' : 'zh_HK') as Locale;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LOCALES.map((locale) => ({ key: locale, label: t(`language.${locale}`) })),
        onClick: ({ key }) => setLocale(key as Locale),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('language.label')}
        data-testid="language-switch"
      >
        {t(`language.${current}`)}
      </Button>
    </Dropdown>
  );
}
