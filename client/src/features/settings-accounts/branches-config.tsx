import { branches } from '../../../../shared/resources/branches';
import { configFromDeclaration } from '../../components/resource/from-declaration';

/**
 * Settings → branches: the offices of the companies (the code goes into document numbers). The list names each
 * branch's company by the server's `company_name`; the form picks it with the declared lookup input.
 */
export const branchesConfig = configFromDeclaration(branches, {
  routePath: '/settings/branches',
  referencedHintKey: 'accounts.branches.referenced',
});
