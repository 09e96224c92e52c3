import { DECLARATIONS } from '../../../shared/resources';
import type { ResourceDeclaration } from '../../../shared/resources/declaration';
import { definitionFromDeclaration } from '../resources/declared';
import {
  registerChildResource,
  registerResource,
  registerResourceFamily,
} from '../resources/resource.routes';
import type { ResourceService } from '../resources/resource.service';
import { registerDeclaredFileFields } from './files.module';
import type { ModuleDeps } from './module';
import { rulesOf } from './resource-rules';

/**
 * A family's members (the option lists at `/options/:key`): one definition each, its segment filled into the
 * path and fixed on its rows, served by one set of routes (`registerResourceFamily`).
 */
function registerFamily(deps: ModuleDeps, decl: ResourceDeclaration): Map<string, ResourceService> {
  const family = decl.family!;
  const members = Object.fromEntries(
    family.members.map((member) => {
      const path = decl.path.replace(`:${family.param}`, member);
      return [
        member,
        definitionFromDeclaration(decl, {
          path,
          exportName: path.replace(/^\//, '').replace(/\//g, '-'),
          fixed: { [family.param]: member },
          ...rulesOf(decl.name, { deps, member }),
        }),
      ];
    }),
  );
  return registerResourceFamily(deps.api, deps.db, { path: decl.path, param: family.param, members });
}

/**
 * Every declared resource (shared/resources), served by the generic routes: top-level ones at `/api{path}`,
 * children under their parent, a family's members under its path. Each gets its rules from
 * `RESOURCE_RULES` (resource-rules.ts). Returns the services by declaration name (a family's members as
 * `name:member`): other modules' routes and rules call them.
 */
export function registerDeclaredResources(deps: ModuleDeps): Map<string, ResourceService> {
  const services = new Map<string, ResourceService>();
  const pending = [...DECLARATIONS];
  while (pending.length) {
    const index = pending.findIndex((d) => !d.parent || services.has(d.parent.resource));
    if (index < 0) throw new Error(`Declared parents missing: ${pending.map((d) => d.name).join(', ')}`);
    const [decl] = pending.splice(index, 1);
    if (decl.family) {
      for (const [member, service] of registerFamily(deps, decl))
        services.set(`${decl.name}:${member}`, service);
      continue;
    }
    const def = definitionFromDeclaration(decl, rulesOf(decl.name, { deps }));
    const parent = decl.parent ? services.get(decl.parent.resource) : undefined;
    services.set(
      decl.name,
      parent
        ? registerChildResource(deps.api, deps.db, parent, def)
        : registerResource(deps.api, deps.db, def),
    );
  }
  registerDeclaredFileFields(deps, services);
  return services;
}

/** A declared resource's service, by declaration name. */
export function resourceOf(resources: ReadonlyMap<string, ResourceService>, name: string): ResourceService {
  const service = resources.get(name);
  if (!service) throw new Error(`The declared resource ${name} is not registered`);
  return service;
}
