import { useState } from 'react';
import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Col, Form, Row, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { reportKeys, type ReportDefinition } from '../../../../shared/reports/definition';
import { PageHeader } from '../layout/page-header';
import { useScreenTitle } from '../layout/use-document-title';
import { useRememberVisit } from '../resource/recent-records-button';
import { CriterionControl, criterionId } from './criteria-controls';
import {
  changeCriterion,
  reportQueryOf,
  resultPath,
  runCriteria,
  type ReportQueryState,
} from './report-query';

/** The grouping choice's value for one row per record. */
const DETAIL = 'detail';

/**
 * A report's criteria screen (its `route`): a form drawn from the definition's criteria — each date range with its
 * presets in Hong Kong days, each record by its lookup, each option by its list — and its groupings; "Run report"
 * opens the result screen with the criteria in its address. Opened from a result ("Change criteria"), it starts from
 * that result's criteria.
 */
export function ReportCriteriaPage({ def }: { def: ReportDefinition }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const [query, setQuery] = useState<ReportQueryState>(() => reportQueryOf(def, search, { rows: false }));
  const title = t(reportKeys.title(def));
  useScreenTitle(title);
  useRememberVisit(location.pathname, (lt) => lt(reportKeys.title(def)), 'route');
  const change = (values: Record<string, string | null>) => {
    setQuery((now) => {
      let next = changeCriterion(def, now, values);
      // a criterion narrowed by one just changed (a consultant by the branch) no longer holds
      for (const [name, criterion] of Object.entries(def.criteria))
        if (criterion.type === 'lookup' && criterion.narrowedBy && criterion.narrowedBy.criterion in values)
          next = changeCriterion(def, next, { [name]: null });
      return next;
    });
  };
  const groupings = Object.keys(def.groupings ?? {});
  const groupChoices = [
    ...(def.detail ? [{ value: DETAIL, label: t('report.detail') }] : []),
    ...groupings.map((g) => ({ value: g, label: t(reportKeys.grouping(def, g)) })),
  ];
  return (
    <div data-testid={`report-criteria-${def.name}`}>
      <PageHeader title={title} />
      <Typography.Paragraph type="secondary">{t('report.criteriaHelp')}</Typography.Paragraph>
      <Form
        layout="vertical"
        style={{ maxWidth: 1100 }}
        onFinish={() => void navigate(resultPath(def, runCriteria(def, query)))}
      >
        <Row gutter={24}>
          {Object.entries(def.criteria).map(([name, criterion]) => (
            // a date range across the form, its presets and days; the others side by side
            <Col key={name} xs={24} {...(criterion.type === 'dateRange' ? {} : { md: 12, xl: 8 })}>
              <Form.Item label={t(reportKeys.criterion(def, name))} htmlFor={criterionId(def, name)}>
                <CriterionControl
                  def={def}
                  name={name}
                  criterion={criterion}
                  query={query}
                  onChange={change}
                />
              </Form.Item>
            </Col>
          ))}
          {groupChoices.length > 1 && (
            <Col xs={24} md={12} xl={8}>
              <Form.Item label={t('report.groupBy')} htmlFor={criterionId(def, 'group_by')}>
                <Select
                  id={criterionId(def, 'group_by')}
                  style={{ width: '100%' }}
                  value={query.group_by ?? groupChoices[0].value}
                  onChange={(value: string) => change({ group_by: value === DETAIL ? null : value })}
                  options={groupChoices}
                />
              </Form.Item>
            </Col>
          )}
        </Row>
        <Space>
          <Button type="primary" htmlType="submit" icon={<PlayCircleOutlined />} data-testid="report-run">
            {t('report.run')}
          </Button>
          <Button onClick={() => setQuery({})} data-testid="report-clear">
            {t('report.clear')}
          </Button>
        </Space>
      </Form>
    </div>
  );
}

/** A report's criteria screen as a route's default export. */
export function reportCriteriaScreen(def: ReportDefinition) {
  return function ReportCriteriaScreen() {
    return <ReportCriteriaPage def={def} />;
  };
}
