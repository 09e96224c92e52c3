import { companies } from '../../../../shared/resources/companies';
import { configFromDeclaration } from '../../components/resource/from-declaration';

/** Settings → companies: the legal entities that issue documents (all from the declaration). */
export const companiesConfig = configFromDeclaration(companies, {
  routePath: '/settings/companies',
  referencedHintKey: 'accounts.companies.referenced',
});
