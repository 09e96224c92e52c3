import { ZRoleCreate, ZRoleUpdate } from '../../../../shared/schemas/roles';
import { roles } from '../../../../shared/resources/roles';
import { configFromDeclaration } from '../../components/resource/from-declaration';
import { RoleGrid } from './role-grid';

/**
 * Settings → roles: a name, the data scope and the permission keys in a module × action grid. The permissions
 * are the roles' own (not a declared field): their column, their grid and their schema.
 */
export const rolesConfig = configFromDeclaration(roles, {
  routePath: '/settings/roles',
  referencedHintKey: 'accounts.roles.referenced',
  // the description in the reader's language: the Chinese one where there is one (the English otherwise)
  columns: {
    description: {
      render: (row, { language }) => {
        const zh = typeof row.description_zh === 'string' ? row.description_zh : '';
        const en = typeof row.description === 'string' ? row.description : '';
        return language === 'en' ? en || zh : zh || en;
      },
    },
  },
  extraColumns: [
    {
      key: 'permissions',
      titleKey: 'accounts.roles.permissionCount',
      render: (row) => String(Array.isArray(row.permissions) ? row.permissions.length : 0),
    },
  ],
  extraFields: [
    {
      name: 'permissions',
      labelKey: 'resources.role.fields.permissions',
      // the module × action grid takes the form's width: in half of it the modules' names broke letter by letter
      wide: true,
      input: {
        type: 'custom',
        render: ({ record: _record, id: _id, ...control }) => <RoleGrid {...control} />,
      },
    },
  ],
  form: { create: ZRoleCreate, update: ZRoleUpdate },
});
