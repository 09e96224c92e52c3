import { DatePicker, Radio, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  DATE_PRESETS,
  reportKeys,
  type CriterionDeclaration,
  type ReportDefinition,
} from '../../../../shared/reports/definition';
import { LookupSelect, OptionSelect } from '../resource/from-declaration';
import { DATE_FORMAT } from '../resource/date-filter';
import { shownRange, type ReportQueryState } from './report-query';

/** The control's id of a criterion (its label's `for`). */
export const criterionId = (def: ReportDefinition, name: string) => `report-${def.name}-${name}`;

/**
 * One criterion's control, as its declaration draws it: a date range as its presets (Hong Kong days) and its two
 * days, a record by its lookup (narrowed by another criterion), an option list's value, one of fixed values.
 */
export function CriterionControl({
  def,
  name,
  criterion,
  query,
  onChange,
}: {
  def: ReportDefinition;
  name: string;
  criterion: CriterionDeclaration;
  query: ReportQueryState;
  onChange: (change: Record<string, string | null>) => void;
}) {
  const { t } = useTranslation();
  const label = t(reportKeys.criterion(def, name));
  const id = criterionId(def, name);
  switch (criterion.type) {
    case 'dateRange': {
      const shown = shownRange(def, name, query);
      const day = (value: string | null) => (value ? dayjs(value) : null);
      const picked = (end: 'from' | 'to') => (date: Dayjs | null) =>
        onChange({ [`${name}_${end}`]: date ? date.format(DATE_FORMAT) : null });
      return (
        <Space orientation="vertical" size={8}>
          <Radio.Group
            optionType="button"
            aria-label={label}
            data-testid={`${id}-presets`}
            value={shown.preset ?? 'custom'}
            onChange={(e) => {
              if (e.target.value !== 'custom') onChange({ [`${name}_preset`]: e.target.value as string });
            }}
            options={[
              ...DATE_PRESETS.map((preset) => ({ value: preset, label: t(reportKeys.preset(preset)) })),
              { value: 'custom', label: t('report.custom'), disabled: true },
            ]}
          />
          <Space wrap>
            <DatePicker
              id={id}
              aria-label={t('common.rangeFrom', { label })}
              placeholder={t('reports.common.from')}
              format={DATE_FORMAT}
              value={day(shown.from)}
              onChange={picked('from')}
              data-testid={`${id}-from`}
            />
            <DatePicker
              aria-label={t('common.rangeTo', { label })}
              placeholder={t('reports.common.to')}
              format={DATE_FORMAT}
              value={day(shown.to)}
              onChange={picked('to')}
              data-testid={`${id}-to`}
            />
          </Space>
        </Space>
      );
    }
    case 'lookup': {
      const by = criterion.narrowedBy ? query[criterion.narrowedBy.criterion] : undefined;
      return (
        <LookupSelect
          id={id}
          resource={criterion.resource}
          params={criterion.narrowedBy && by ? { [criterion.narrowedBy.filter]: by } : undefined}
          value={query[name] ? Number(query[name]) : null}
          onChange={(value) =>
            onChange({ [name]: value === null || value === undefined ? null : String(value) })
          }
          placeholder={t('report.any')}
          ariaLabel={label}
        />
      );
    }
    case 'option':
      return (
        <OptionSelect
          id={id}
          list={criterion.key}
          value={query[name] ?? null}
          onChange={(value) => onChange({ [name]: value ?? null })}
        />
      );
    case 'values':
      return (
        <Select
          id={id}
          allowClear
          placeholder={t('report.any')}
          style={{ width: '100%' }}
          value={query[name]}
          onChange={(value: string | undefined) => onChange({ [name]: value ?? null })}
          options={criterion.values.map((value) => ({ value, label: t(reportKeys.value(def, name, value)) }))}
        />
      );
  }
}
