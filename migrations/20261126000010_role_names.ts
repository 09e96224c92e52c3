import type { Knex } from 'knex';

/**
 * A role's Chinese name (`roles.name_zh`, optional; `name` is the English one): a role without one is named by
 * `name` in both languages. The roles the install creates (the demo seed, `npm run admin:create`) get theirs;
 * an agency's existing rows are left as they are but for those two names, still unrenamed, given the Chinese too.
 */
export const SEEDED_ROLE_NAMES_ZH: Record<string, string> = {
  Administrator: '管理員',
  Consultant: '顧問',
};

/** The seeded roles (by their unchanged English name) without a Chinese name get theirs; nothing else changes. */
export async function nameSeededRoles(knex: Knex): Promise<void> {
  for (const [name, zh] of Object.entries(SEEDED_ROLE_NAMES_ZH))
    await knex('roles').where({ name }).whereNull('name_zh').update({ name_zh: zh });
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('roles', (t) => {
    t.string('name_zh', 100).nullable();
  });
  await nameSeededRoles(knex);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('roles', (t) => {
    t.dropColumn('name_zh');
  });
}
