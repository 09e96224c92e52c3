import { useTranslation } from 'react-i18next';

/** The app shell's text until the initial load is finished (spec §1). Plain markup: it is on the first load. */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" style={{ padding: 48, textAlign: 'center', color: '#475569' }}>
      {t('app.loading')}
    </div>
  );
}
