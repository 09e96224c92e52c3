import { quotations } from '../../../../shared/resources/sales';
import type { DeclarationOverrides } from '../../components/resource/from-declaration';
import { StateTag } from '../../components/resource/renderers';
import { ConvertButton } from './sales-actions';
import { salesOverrides } from './sales-common';

/**
 * What the quotations' screens show beyond their declaration: the lines editor with its live totals, the status
 * as a tag, the list's total per currency of the page's rows, Convert on an accepted quotation (beside its moves
 * and Print, which the machinery derives; the contract tab is the declaration's own form of its contract fields).
 */
const common = salesOverrides(quotations, ['total']);
const overrides: DeclarationOverrides = {
  ...common,
  fields: {
    ...(common.fields as Record<string, object>),
    status: {
      input: {
        type: 'custom',
        render: ({ record }) => (
          <StateTag resource="quotation" values={quotations.states!.values} value={record?.status} />
        ),
      },
    },
  },
  recordActions: (record, ctx) => <ConvertButton record={record} ctx={ctx} />,
};

export default overrides;
