import { App, Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../../../../shared/features';
import { useLanguageChoice } from './use-language-choice';

/**
 * Switches between English and Traditional Chinese, in the signed-in header (the sign-in frame has a native
 * select, components/lite). What a choice does (kept, saved) is useLanguageChoice's.
 */
export function LanguageSwitch({
  onChange,
  compact = false,
}: {
  onChange?: (locale: Locale) => void;
  /** the globe alone (a phone's top bar), named for screen readers */
  compact?: boolean;
} = {}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { current, choose } = useLanguageChoice({
    onChange,
    onNotSaved: (text) => void message.error(text),
  });

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LOCALES.map((locale) => ({ key: locale, label: t(`language.${locale}`) })),
        onClick: ({ key }) => choose(key as Locale),
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
