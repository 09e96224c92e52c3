import { can } from '../../../../shared/permissions';
import { useAppSelector } from '../../app/hooks';
import type { ResourceConfig } from './types';

/** What the signed-in user may do with a resource's records. */
export function useResourcePermissions(config: Pick<ResourceConfig, 'module' | 'readOnly' | 'undeletable'>) {
  const user = useAppSelector((s) => s.app.user);
  const may = (action: string) => !config.readOnly && can(user, `${config.module}.${action}`);
  return {
    canCreate: may('create'),
    canUpdate: may('update'),
    canDelete: !config.undeletable && may('delete'),
  };
}
