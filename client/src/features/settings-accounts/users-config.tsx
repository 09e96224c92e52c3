import { users } from '../../../../shared/resources/users';
import { ZUserCreateForm, ZUserUpdateForm } from '../../../../shared/schemas/users';
import { configFromDeclaration } from '../../components/resource/from-declaration';
import { UserSecurityTab } from './user-security-tab';

/**
 * Settings → users: staff accounts (role, branch, admin flag, language, active), from the declaration; the list
 * names each user's role and branch by the server's `role_name` / `branch_name`. What is the users' own: the
 * password a new account starts with, the security tab, and the locked fields — an account stronger than the
 * user's (`allowed_actions` empty) opens read-only, saying so; one's own email is changed on the profile, and
 * only an admin makes an admin.
 */
export const usersConfig = configFromDeclaration(users, {
  routePath: '/settings/users',
  referencedHintKey: 'accounts.users.referenced',
  fields: {
    // one's own address changes on the profile, where the current password is asked for
    email: {
      locked: ({ record, user }) =>
        record && user && record.id === user.id ? 'serverMessages.ownEmailOnProfile' : null,
    },
    is_admin: { locked: ({ user }) => (user?.is_admin ? null : 'serverMessages.adminOnlyMakeAdmin') },
  },
  extraFields: [
    { name: 'password', labelKey: 'accounts.users.password', input: { type: 'password' }, only: 'create' },
    {
      name: 'password_confirmation',
      labelKey: 'accounts.users.passwordConfirmation',
      input: { type: 'password' },
      only: 'create',
    },
  ],
  // role and branch required: marked so, and refused empty before the server says it
  form: { create: ZUserCreateForm, update: ZUserUpdateForm },
  tabs: [
    {
      key: 'security',
      labelKey: 'accounts.users.security.tab',
      render: (record) => <UserSecurityTab record={record} />,
    },
  ],
});
