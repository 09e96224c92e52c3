import { orderTerms, refundTerms } from '../../../../../shared/resources/terms';
import { configFromDeclaration } from '../../../components/resource/from-declaration';

/**
 * `/settings/order/terms` and `/settings/refund/terms`: bilingual rich text (the declared rich-text editor),
 * exactly one default of each kind (making one the default unsets the other on the server); a delete refused
 * for use says what to do instead (the server's hint).
 */
export function termsConfig(kind: 'order' | 'refund') {
  return configFromDeclaration(kind === 'order' ? orderTerms : refundTerms, {
    routePath: `/settings/${kind}/terms`,
  });
}
