import { Outlet } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';

/** The routed screen; `viewKey` (bumped by /reload) remounts it. */
export function ViewOutlet() {
  const viewKey = useAppSelector((s) => s.app.viewKey);
  return (
    <div key={viewKey} className="app-view">
      <Outlet />
    </div>
  );
}
