import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import i18next from 'i18next';
import type { AppStore } from './store';
import { ProgressBar } from '../components/progress-bar';
import '../components/global.css';

/**
 * Redux and i18next, plus the progress bar. antd's ConfigProvider sits in the layouts (AntdProvider) so
 * the first load stays free of antd.
 */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18next}>
        <ProgressBar />
        {children}
      </I18nextProvider>
    </Provider>
  );
}
