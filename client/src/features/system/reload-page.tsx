import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { appActions } from '../../app/app-slice';
import { useAppDispatch } from '../../app/hooks';

/** Only same-site paths: never an absolute or protocol-relative URL. */
export function safeReturnPath(to: string | null): string {
  return to && to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/reload') ? to : '/';
}

/**
 * /reload?to=/path: re-opens a screen from scratch — its data is fetched again by its loader and the new
 * `viewKey` remounts it.
 */
export default function ReloadPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const to = safeReturnPath(params.get('to'));
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    dispatch(appActions.bumpViewKey());
    navigate(to, { replace: true });
  }, [dispatch, navigate, to]);
  return (
    <div role="status" style={{ color: '#475569' }}>
      {t('app.loading')}
    </div>
  );
}
