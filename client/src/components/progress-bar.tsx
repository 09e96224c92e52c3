import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { progressEvents } from '../http/progress';
import { createProgressTracker } from './progress-tracker';
import './progress-bar.css';

/** A thin slate bar across the top while requests are pending for more than 250 ms. No spinner. */
export function ProgressBar() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const tracker = createProgressTracker(setVisible);
    const unsubscribe = progressEvents.subscribe(tracker.handle);
    return () => {
      unsubscribe();
      tracker.dispose();
    };
  }, []);
  if (!visible) return null;
  return (
    <div
      className="app-progress-bar"
      role="progressbar"
      aria-label={t('app.loading')}
      data-testid="progress-bar"
    >
      <div className="app-progress-bar__fill" />
    </div>
  );
}
