import type { MessageKey } from '../../../../shared/messages';
import { MODULES, PERMISSIONS, moduleActions, type DataScope } from '../../../../shared/permissions';
import { DATA_SCOPES, ZRoleCreate, ZRoleUpdate } from '../../../../shared/schemas/roles';
import { fieldLabelKey } from '../../../../shared/resources/declaration';
import { declaredDefaults } from '../../../../shared/resources/derive';
import { roles } from '../../../../shared/resources/roles';
import { declaredLabel, definitionFromDeclaration } from '../../resources/declared';
import type { ResourceDefinition } from '../../resources/resource';
import { declaredRules } from '../../resources/rows';
import { assertGrantable, callerPower, parsePermissions, roleRefusal } from '../access/access-rules';
import { usersRepository } from '../users/users.repository';

/** The export's permissions column: each permission by its name in the export's language, as the role grid says it. */
const permissionsLabel = declaredLabel(fieldLabelKey(roles.name, 'permissions'));
const PERMISSION_NAMES = new Map(
  PERMISSIONS.map((key) => {
    const [module, action] = key.split('.');
    const [m, a] = [
      declaredLabel(`permissions.modules.${module}`),
      declaredLabel(`permissions.actions.${action}`),
    ];
    return [key, { en: `${m.en} – ${a.en}`, zh: `${m.zh} – ${a.zh}` }];
  }),
);
const derived = definitionFromDeclaration(roles);

/** What the roles' schemas add to the declared fields: the permission keys (ZRoleCreate). */
type RolePermissions = { permissions: string[] };

function isDataScope(value: unknown): value is DataScope {
  return DATA_SCOPES.some((scope) => scope === value);
}

/**
 * The rules of roles beyond their declaration (shared/resources/roles.ts): the permission keys (a JSON array,
 * not a declared field: its schema is the declaration's plus `permissions`), and the grants — a role stays
 * within the caller's own rights.
 */
export const roleRules: Partial<ResourceDefinition> = declaredRules<typeof roles, RolePermissions>(roles, {
  schemas: { ...derived.schemas, create: ZRoleCreate, update: ZRoleUpdate },
  exportColumns: [
    ...(derived.exportColumns ?? []),
    {
      key: 'permissions',
      ...permissionsLabel,
      value: (r, language) =>
        Array.isArray(r.permissions)
          ? r.permissions
              .map((key: string) => PERMISSION_NAMES.get(key)?.[language] ?? key)
              .join(language === 'zh' ? '、' : ', ')
          : '',
    },
  ],
  toResponse: (row) => ({
    ...row,
    permissions: parsePermissions(typeof row.permissions === 'string' ? row.permissions : null),
  }),
  /**
   * Roles out of the caller's reach (access-rules.ts): the one it holds, one with rights it lacks, and — when it
   * sees one branch — one held by users of other branches.
   */
  async refusals(db, rows, ctx) {
    const caller = callerPower(ctx);
    const elsewhere =
      caller && !caller.isAdmin && caller.dataScope === 'branch'
        ? await usersRepository.holdersOutsideBranch(
            db,
            rows.map((r) => r.id),
            caller.branchId,
          )
        : new Map<number, number>();
    const refused = new Map<number, MessageKey>();
    for (const row of rows) {
      const reason = roleRefusal(
        ctx,
        { id: row.id, permissions: row.permissions, data_scope: row.data_scope },
        elsewhere.get(row.id) ?? 0,
      );
      if (reason) refused.set(row.id, reason);
    }
    return refused;
  },
  /** A role is a grant: its permissions and its data scope stay within the caller's own. */
  async beforeWrite(_db, data, existing, ctx) {
    if (data.permissions) assertGrantable(ctx, { permissions: data.permissions }, 'permissions');
    const dataScope = data.data_scope ?? existing?.data_scope;
    assertGrantable(
      ctx,
      { permissions: [], dataScope: isDataScope(dataScope) ? dataScope : undefined },
      'data_scope',
    );
  },
  async prepare(_db, input) {
    if (!input.permissions) return input;
    // stored in the shared list's order, each key once
    const chosen = new Set<string>(input.permissions);
    return { ...input, permissions: JSON.stringify(PERMISSIONS.filter((p) => chosen.has(p))) };
  },
  createForm: async () => ({
    defaults: { ...declaredDefaults(roles), permissions: [] },
    data_scopes: DATA_SCOPES,
    permissions: PERMISSIONS,
    /** the role editor's module × action grid */
    grid: MODULES.map((module) => ({
      module,
      actions: moduleActions(module),
    })),
  }),
});
