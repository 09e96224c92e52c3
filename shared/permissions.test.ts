import { PERMISSIONS, WITHOUT_DELETE } from './permissions';
import { DECLARATIONS } from './resources';

/**
 * A delete permission exists exactly where something can be deleted: a module whose records are all undeletable
 * (money documents: voided or cancelled) offers no `delete` in the role grid, and a module with a deletable record
 * keeps it.
 */
describe('delete permissions', () => {
  const modules = [...new Set(DECLARATIONS.map((d) => d.module).filter(Boolean))] as string[];

  it.each(modules)('%s offers delete exactly when one of its records can be deleted', (module) => {
    const deletable = DECLARATIONS.some((d) => d.module === module && !d.undeletable);
    expect(PERMISSIONS.includes(`${module}.delete`)).toBe(deletable);
  });

  it('names the undeletable modules and no other', () => {
    expect([...WITHOUT_DELETE].sort()).toEqual(
      modules.filter((m) => DECLARATIONS.every((d) => d.module !== m || d.undeletable)).sort(),
    );
  });
});
