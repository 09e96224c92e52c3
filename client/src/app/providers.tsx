import { useEffect, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import i18next from 'i18next';
import type { AppStore } from './store';
import { api } from './api';
import { ProgressBar } from '../components/progress-bar';
import '../components/global.css';

/**
 * Redux and i18next, plus the progress bar. antd's ConfigProvider sits in the layouts (AntdProvider) so
 * the first load stays free of antd.
 */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  useRefetchOnLanguageChange(store);
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18next}>
        <ProgressBar />
        {children}
      </I18nextProvider>
    </Provider>
  );
}

/**
 * Records carry the server's words in the language they were asked in (names of related records, option labels,
 * calendar titles): a switch of language reads the cached ones again, so no screen mixes languages.
 */
function useRefetchOnLanguageChange(store: AppStore): void {
  useEffect(() => {
    const refetch = () => store.dispatch(api.util.invalidateTags(['Resource', 'Files']));
    i18next.on('languageChanged', refetch);
    return () => i18next.off('languageChanged', refetch);
  }, [store]);
}
