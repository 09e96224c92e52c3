import type { ReactNode } from 'react';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FieldDeclaration, ResourceDeclaration } from '../../../../shared/resources/declaration';
import { lookupNameField, valueLabelKey } from '../../../../shared/resources/declaration';
import { formatDate, formatDateTime } from '../../i18n/date-time';
import { choiceLabel } from './choice-select';
import { useOptionListQuery } from './declared-api';
import type { ResourceRow, Translate } from './types';

/**
 * How the back-office shows a value of each declared field type, in table cells and read-only views. Times are
 * stored in UTC and shown in the business's time zone (Hong Kong) whatever the browser's; money is stored in
 * integer minor units and shown with its currency's own decimals (none for KRW and JPY).
 */

// one formatter for every time on screen (Hong Kong time): re-exported for the screens that import it from here
export { BUSINESS_TIME_ZONE, formatDate, formatDateTime, inBusinessTime } from '../../i18n/date-time';

/** The number locale of an interface language. */
export function numberLocale(language: string): string {
  return language === 'en' ? 'en-HK' : 'zh-HK';
}

const digitsCache = new Map<string, number>();

/** The decimals of a currency's major unit (ISO 4217): 2 for HKD, 0 for KRW and JPY, 3 for BHD. */
export function currencyDigits(currency: string | null | undefined): number {
  const code = String(currency ?? '').toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return 2;
  let digits = digitsCache.get(code);
  if (digits === undefined) {
    try {
      digits =
        new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
          .maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    digitsCache.set(code, digits);
  }
  return digits;
}

/**
 * Minor units → major units. Every currency is stored ×100 (domain.md "Money"), KRW too, whatever decimals it
 * shows: 12345 HKD cents → 123.45; 12345600 KRW → 123456.
 */
export function toMajorUnits(minor: number, _currency?: string | null): number {
  return minor / 100;
}

/**
 * An amount held in integer minor units, for reading: the currency code, then the amount with thousands
 * separators and the currency's own decimals — `HKD 1,234.50`, `KRW 1,234,567`, `JPY 5,000`.
 */
export function formatMoney(
  minor: number | null | undefined,
  currency: string | null | undefined,
  language: string,
): string {
  if (minor === null || minor === undefined || !Number.isFinite(Number(minor))) return '';
  const digits = currencyDigits(currency);
  const amount = new Intl.NumberFormat(numberLocale(language), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(toMajorUnits(Number(minor), currency));
  return currency ? `${String(currency).toUpperCase()} ${amount}` : amount;
}

/** A rate in basis points as a percentage: 1234 → `12.34%`, 500 → `5%`. */
export function formatRate(basisPoints: number | null | undefined, language: string): string {
  if (basisPoints === null || basisPoints === undefined || !Number.isFinite(Number(basisPoints))) return '';
  return `${new Intl.NumberFormat(numberLocale(language), { maximumFractionDigits: 2 }).format(Number(basisPoints) / 100)}%`;
}

/** A yes / no tag in the interface language. */
export function YesNoTag({ value }: { value: unknown }) {
  const { t } = useTranslation();
  if (value === null || value === undefined) return null;
  const yes = value === true || value === 1 || value === '1' || value === 'true';
  return yes ? <Tag color="green">{t('common.yes')}</Tag> : <Tag>{t('common.no')}</Tag>;
}

/** A colour swatch: a tag in the colour, naming its code. */
export function ColorSwatch({ value }: { value: unknown }) {
  if (typeof value !== 'string' || !/^#[0-9a-f]{6}$/i.test(value)) return null;
  return (
    <Tag color={value} data-testid="color-swatch" data-color={value.toLowerCase()}>
      {value.toLowerCase()}
    </Tag>
  );
}

const STATE_COLOURS = ['default', 'processing', 'success', 'warning', 'error', 'purple', 'cyan', 'magenta'];

/** A record's state as a coloured tag: its label is `resources.<name>.states.<value>`. */
export function StateTag({
  resource,
  values,
  value,
}: {
  resource: string;
  values: readonly string[];
  value: unknown;
}) {
  const { t } = useTranslation();
  if (value === null || value === undefined || value === '') return null;
  const index = values.indexOf(String(value));
  return (
    <Tag color={STATE_COLOURS[index < 0 ? 0 : index % STATE_COLOURS.length]} data-state={String(value)}>
      {t(`resources.${resource}.states.${String(value)}`, { defaultValue: String(value) })}
    </Tag>
  );
}

/** An option value shown by its label in the interface language (the value itself until the list is read). */
export function OptionLabel({ list, value }: { list: string; value: unknown }) {
  const { i18n } = useTranslation();
  const { data } = useOptionListQuery({ list, activeOnly: false });
  if (value === null || value === undefined || value === '') return null;
  return <>{choiceLabel(data, value, i18n.language)}</>;
}

/** The option list of an option field (a currency field reads the currency list). */
export function optionListOf(field: FieldDeclaration): string {
  if (field.type === 'currency') return 'currency';
  return field.type === 'option' ? field.key : '';
}

/** The label key of one of a text field's declared `values`: `resources.<name>.values.<field>.<value>`. */
export { valueLabelKey };

/** The text of stored rich text (tags dropped), for a cell. */
export function plainText(html: unknown): string {
  if (typeof html !== 'string') return '';
  return html
    .replace(/<(br|\/p|\/li|\/div)\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * How one declared field of a row reads, in a table cell or a read-only view: money with its currency, dates
 * and times in Hong Kong, lookups by the related record's name (never `#id`), options by their label, colours
 * as swatches, states as tags, booleans as yes / no tags.
 */
export function renderDeclaredValue(
  decl: Pick<ResourceDeclaration, 'name' | 'states'>,
  name: string,
  field: FieldDeclaration,
  row: Record<string, unknown>,
  helpers: { t: Translate; language: string },
): ReactNode {
  const value = row[name];
  if (decl.states && decl.states.column === name)
    return <StateTag resource={decl.name} values={decl.states.values} value={value} />;
  switch (field.type) {
    case 'money':
      return formatMoney(value as number | null, row[field.currency] as string | null, helpers.language);
    case 'rate':
      return formatRate(value as number | null, helpers.language);
    case 'date':
      return formatDate(value as string | null);
    case 'datetime':
      return formatDateTime(value as string | null);
    case 'boolean':
      return <YesNoTag value={value} />;
    case 'option': {
      // the server names the option in the caller's language (`<field>_label`); the list itself needs settings.view
      const label = row[`${name}_label`];
      if (typeof label === 'string' && label) return label;
      return <OptionLabel list={optionListOf(field)} value={value} />;
    }
    case 'currency':
      return value ? String(value) : '';
    case 'lookup':
    case 'file': {
      const label = row[lookupNameField(name)];
      return label === null || label === undefined ? '' : String(label);
    }
    case 'color':
      return <ColorSwatch value={value} />;
    case 'richtext':
      return plainText(value);
    case 'integer':
      return value === null || value === undefined ? '' : String(value);
    default:
      if (value === null || value === undefined) return '';
      // one of the field's declared values, by its label
      if (field.type === 'text' && field.values?.includes(String(value)))
        return helpers.t(valueLabelKey(decl.name, name, String(value)));
      return String(value);
  }
}

/** A table cell renderer of a declared field (ResourceColumn `render`). */
export function declaredCell(
  decl: Pick<ResourceDeclaration, 'name' | 'states'>,
  name: string,
  field: FieldDeclaration,
): (row: ResourceRow, helpers: { t: Translate; language: string }) => ReactNode {
  return (row, helpers) => renderDeclaredValue(decl, name, field, row, helpers);
}

/** A read-only view of a record's declared fields: label and value per field, in declaration order. */
export function DeclaredValues({
  decl,
  row,
  fields,
}: {
  decl: ResourceDeclaration;
  row: Record<string, unknown>;
  /** the fields shown (default: every declared field) */
  fields?: readonly string[];
}) {
  const { t, i18n } = useTranslation();
  const names = fields ?? Object.keys(decl.fields);
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      {names.map((name) => {
        const field = decl.fields[name];
        if (!field) return null;
        return (
          <div key={name} data-field={name}>
            <span style={{ color: 'rgba(0,0,0,0.45)', marginRight: 8 }}>
              {t(`resources.${decl.name}.fields.${name}`)}
            </span>
            {renderDeclaredValue(decl, name, field, row, { t, language: i18n.language })}
          </div>
        );
      })}
    </Space>
  );
}
