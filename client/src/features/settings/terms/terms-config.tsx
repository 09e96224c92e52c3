import { Tag } from 'antd';
import { ZTermsCreate, ZTermsUpdate } from '../../../../../shared/schemas/terms';
import type { ResourceConfig, ResourceRow } from '../../../components/resource/types';
import { localName } from '../names';
import { RichTextEditor } from './rich-text-editor';

type TermsRow = ResourceRow & { is_default: boolean; is_active: boolean };

/**
 * `/settings/order/terms` and `/settings/refund/terms`: bilingual rich text, exactly one default of each
 * kind (making one the default unsets the other on the server). One config for both kinds.
 */
export function termsConfig(kind: 'order' | 'refund'): ResourceConfig<TermsRow> {
  return {
    name: `${kind}-terms`,
    apiPath: `/api/${kind}-terms`,
    routePath: `/settings/${kind}/terms`,
    module: 'settings',
    titleKey: kind === 'order' ? 'settings.terms.orderTitle' : 'settings.terms.refundTitle',
    searchable: true,
    exportable: true,
    auditEntity: `${kind}_terms`,
    referencedHintKey: 'settings.terms.referencedHint',
    columns: [
      { key: 'title_en', titleKey: 'settings.terms.titleEn', sortable: true },
      { key: 'title_zh', titleKey: 'settings.terms.titleZh', sortable: true },
      {
        key: 'is_default',
        titleKey: 'settings.terms.default',
        render: (row, { t }) =>
          row.is_default ? <Tag color="blue">{t('settings.terms.default')}</Tag> : null,
      },
      {
        key: 'is_active',
        titleKey: 'settings.fields.active',
        render: (row, { t }) =>
          row.is_active ? (
            <Tag color="green">{t('settings.fields.yes')}</Tag>
          ) : (
            <Tag>{t('settings.fields.no')}</Tag>
          ),
      },
      { key: 'sort_order', titleKey: 'settings.fields.sortOrder', sortable: true },
    ],
    recordTitle: (row, language) => localName(row, language, 'title'),
    form: {
      create: ZTermsCreate,
      update: ZTermsUpdate,
      fields: [
        { name: 'title_en', labelKey: 'settings.terms.titleEn', input: { type: 'text' } },
        { name: 'title_zh', labelKey: 'settings.terms.titleZh', input: { type: 'text' } },
        {
          name: 'content_en',
          labelKey: 'settings.terms.contentEn',
          input: {
            type: 'custom',
            render: (p) => (
              <RichTextEditor id={p.id} value={p.value} onChange={p.onChange} disabled={p.disabled} />
            ),
          },
        },
        {
          name: 'content_zh',
          labelKey: 'settings.terms.contentZh',
          input: {
            type: 'custom',
            render: (p) => (
              <RichTextEditor id={p.id} value={p.value} onChange={p.onChange} disabled={p.disabled} />
            ),
          },
        },
        {
          name: 'is_default',
          labelKey: 'settings.terms.default',
          helpKey: 'settings.terms.defaultHelp',
          input: { type: 'switch' },
        },
        { name: 'is_active', labelKey: 'settings.fields.active', input: { type: 'switch' } },
        { name: 'sort_order', labelKey: 'settings.fields.sortOrder', input: { type: 'number', min: 0 } },
      ],
    },
  };
}
