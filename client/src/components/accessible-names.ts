import { useTranslation } from 'react-i18next';

/** The names antd's parts read at render time (see client/build/accessible-names.ts), in the interface language. */
export interface AccessibleNames {
  clear: string;
  increase: string;
  decrease: string;
  clearColor: string;
  /** an icon's name (its drawing's, as `delete` or `menu-fold`) in the interface language */
  icon: (name: string) => string;
}

declare global {
  var __accessibleNames: AccessibleNames | undefined;
}

/**
 * Keeps `globalThis.__accessibleNames` in the interface language. Called by the antd provider as it renders, so
 * the antd parts below it, rendering in the same pass, read the names of the language being shown.
 */
export function useAccessibleNames(): void {
  const { t } = useTranslation();
  globalThis.__accessibleNames = {
    clear: t('a11y.clear'),
    increase: t('a11y.increase'),
    decrease: t('a11y.decrease'),
    clearColor: t('a11y.clearColor'),
    icon: (name) => t(`a11y.icons.${name}`, { defaultValue: name }),
  };
}
