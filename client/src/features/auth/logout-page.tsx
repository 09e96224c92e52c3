import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../../app/hooks';
import { useLogoutMutation } from './auth-api';
import { signedOut } from './session';

/**
 * /logout: ends the session on the server, forgets the user and goes to /login. Used by both front ends
 * (the server ends whichever session the host has).
 */
export default function LogoutPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout().then((result) => {
      // Whatever the server said, this browser no longer holds a session it can use.
      signedOut(dispatch);
      if (!result.error || !('handled' in result.error && result.error.handled))
        navigate('/login', { replace: true });
    });
  }, [dispatch, logout, navigate]);

  return (
    <div role="status" style={{ padding: 24, color: '#475569' }}>
      {t('auth.logout.progress')}
    </div>
  );
}
