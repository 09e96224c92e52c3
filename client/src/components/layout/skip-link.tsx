import { useTranslation } from 'react-i18next';

/** The id of every frame's `main`: the skip link's target. */
export const MAIN_ID = 'main-content';

/**
 * "Skip to main content": the first thing a keyboard reaches on every screen, shown when focused; it moves the
 * focus to the frame's `main` (which has `tabIndex={-1}`), past the menu and the top bar.
 */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      className="skip-link"
      href={`#${MAIN_ID}`}
      onClick={(e) => {
        // the router keeps the address; the focus moves
        e.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
    >
      {t('layout.skipToMain')}
    </a>
  );
}
