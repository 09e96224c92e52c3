import type { Knex } from 'knex';

/**
 * A role's description in Chinese (`roles.description_zh`, optional; `description` is the English one): a zh_HK
 * reader sees it where there is one, else the English (issue 31 §4: the seeded roles' "Every module, every
 * branch" on zh_HK screens). The roles the install creates (the demo seed, `npm run admin:create`) get both; an
 * agency's existing seeded roles get the Chinese too while their English description is still the seeded one.
 */
/** As shared/resources/roles.ts's SEEDED_ROLE_DESCRIPTIONS when written (a migration keeps its own copy). */
export const SEEDED_ROLE_DESCRIPTIONS: Record<string, { en: string; zh: string }> = {
  Administrator: { en: 'Every module, every branch', zh: '所有模組，所有分行' },
  Consultant: {
    en: 'Students, quotations and invoices of their own branch',
    zh: '所屬分行的學生、報價單及發票',
  },
};

/** Seeded roles whose English description is unchanged and that have no Chinese one get it; nothing else. */
export async function describeSeededRoles(knex: Knex): Promise<void> {
  for (const [name, { en, zh }] of Object.entries(SEEDED_ROLE_DESCRIPTIONS))
    await knex('roles')
      .where({ name, description: en })
      .whereNull('description_zh')
      .update({ description_zh: zh });
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('roles', (t) => {
    t.string('description_zh', 500).nullable();
  });
  await describeSeededRoles(knex);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('roles', (t) => {
    t.dropColumn('description_zh');
  });
}
