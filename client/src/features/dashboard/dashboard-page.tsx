import type { ReactNode } from 'react';
import { Card, Col, Empty, List, Row, Space, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData } from 'react-router-dom';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type {
  CountsData,
  DashboardAnswer,
  DashboardFigure,
  ListData,
  MoneyData,
  MoneySeriesData,
  SeriesData,
} from '../../../../shared/dashboard';
import { PageHeader } from '../../components/layout/page-header';
import { useScreenTitle } from '../../components/layout/use-document-title';
import { formatMoney, numberLocale, toMajorUnits } from '../../components/resource/renderers';

/** The app's blue, and the colours of the series per currency (HKD, KRW, then others). */
const BAR = '#1677ff';
const CURRENCY_COLOURS = ['#1677ff', '#d4380d', '#389e0d', '#722ed1', '#08979c'];

/** `2026-03` as a short month in the language: `Mar 26`, `26年3月`. */
function monthLabel(period: string, language: string): string {
  const date = new Date(`${period}-01T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return period;
  return new Intl.DateTimeFormat(language === 'en' ? 'en-HK' : 'zh-HK', {
    month: 'short',
    year: '2-digit',
    timeZone: 'UTC',
  }).format(date);
}

/** Read out, not shown. */
const SCREEN_READERS_ONLY = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/** A chart, and the same figures in words for whoever does not see it. */
function Chart({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <figure style={{ margin: 0 }} data-testid="dashboard-chart">
      <div style={{ width: '100%', height: 240 }}>
        <ResponsiveContainer width="100%" height="100%">
          {children as never}
        </ResponsiveContainer>
      </div>
      <figcaption style={SCREEN_READERS_ONLY}>{summary}</figcaption>
    </figure>
  );
}

function CountsFigure({ data, valueLabel }: { data: CountsData; valueLabel: string }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(numberLocale(i18n.language));
  const summary = data.items
    .map((i) => t('common.labelled', { label: i.label, value: number.format(i.value) }))
    .join(', ');
  return (
    <Chart summary={summary}>
      <BarChart data={data.items} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" interval={0} tick={{ fontSize: 12 }} />
        <YAxis allowDecimals={false} width={40} />
        <Tooltip formatter={(value) => [number.format(Number(value)), valueLabel]} />
        <Bar dataKey="value" name={valueLabel} fill={BAR} isAnimationActive={false} />
      </BarChart>
    </Chart>
  );
}

function SeriesFigure({ data, valueLabel }: { data: SeriesData; valueLabel: string }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(numberLocale(i18n.language));
  const points = data.points.map((p) => ({ ...p, label: monthLabel(p.period, i18n.language) }));
  const summary = points
    .map((p) => t('common.labelled', { label: p.label, value: number.format(p.value) }))
    .join(', ');
  return (
    <Chart summary={summary}>
      <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" tick={{ fontSize: 12 }} />
        <YAxis allowDecimals={false} width={40} />
        <Tooltip formatter={(value) => [number.format(Number(value)), valueLabel]} />
        <Line
          type="monotone"
          dataKey="value"
          name={valueLabel}
          stroke={BAR}
          strokeWidth={2}
          isAnimationActive={false}
        />
      </LineChart>
    </Chart>
  );
}

/** How many a figure counts (`dashboard.figures.<key>.count`), and what they are (`….help`). */
function FigureCount({ figure, count }: { figure: DashboardFigure; count: number }) {
  const { t } = useTranslation();
  return (
    <>
      <Statistic
        value={count}
        title={t(`dashboard.figures.${figure.key}.count`)}
        style={{ marginBottom: 8 }}
      />
      <Typography.Paragraph type="secondary">
        {t(`dashboard.figures.${figure.key}.help`)}
      </Typography.Paragraph>
    </>
  );
}

function ListFigure({ figure, data }: { figure: DashboardFigure; data: ListData }) {
  const { t } = useTranslation();
  return (
    <>
      <FigureCount figure={figure} count={data.total} />
      {data.items.length === 0 ? (
        <Typography.Text type="secondary">{t(`dashboard.figures.${figure.key}.none`)}</Typography.Text>
      ) : (
        <List
          size="small"
          dataSource={data.items}
          renderItem={(item) => (
            <List.Item
              key={item.id}
              extra={
                <Tag color="red">{t(`dashboard.figures.${figure.key}.item`, { count: item.value })}</Tag>
              }
            >
              <List.Item.Meta
                title={item.url ? <Link to={item.url}>{item.title}</Link> : item.title}
                description={[item.date, item.detail].filter(Boolean).join(' · ')}
              />
            </List.Item>
          )}
        />
      )}
    </>
  );
}

/**
 * Amounts per currency, side by side: never summed across currencies; first how many documents they are of, when
 * the figure counts them (overdue invoices), with what the amounts are.
 */
function MoneyFigure({ figure, data }: { figure: DashboardFigure; data: MoneyData }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {data.count !== undefined ? <FigureCount figure={figure} count={data.count} /> : null}
      {data.values.length === 0 && (
        // no amount in any currency: said, not an empty card
        <Typography.Text type="secondary" data-testid="figure-no-amounts">
          {t('dashboard.noAmounts')}
        </Typography.Text>
      )}
      <Row gutter={16}>
        {data.values.map((v) => (
          <Col key={v.currency}>
            <Statistic title={v.currency} value={formatMoney(v.amount, v.currency, i18n.language)} />
          </Col>
        ))}
      </Row>
    </>
  );
}

/**
 * A series per currency in one chart, each month's bars side by side (HKD beside KRW), each currency on an axis of
 * its own — the first on the left, the second on the right, each named by its code — as their amounts differ by a
 * hundredfold and are never added up; a key names each currency's colour, and the tooltip and the words under the
 * chart (for whoever does not see it) read the amounts in full.
 */
function MoneySeriesFigure({ data }: { data: MoneySeriesData }) {
  const { t, i18n } = useTranslation();
  const compact = new Intl.NumberFormat(numberLocale(i18n.language), { notation: 'compact' });
  const colour = (i: number) => CURRENCY_COLOURS[i % CURRENCY_COLOURS.length];
  // amounts stay integer minor units: the axes and the tooltip read them in major units
  const points = data.points.map((p) => ({ label: monthLabel(p.period, i18n.language), ...p.amounts }));
  const summary = data.currencies
    .map((currency) =>
      t('common.labelled', {
        label: currency,
        value: data.points
          .map((p) =>
            t('common.labelled', {
              label: monthLabel(p.period, i18n.language),
              value: formatMoney(p.amounts[currency] ?? 0, currency, i18n.language),
            }),
          )
          .join(', '),
      }),
    )
    .join('; ');
  return (
    <>
      <Space size="middle" wrap aria-hidden>
        {data.currencies.map((currency, i) => (
          <Space key={currency} size={4}>
            <span
              style={{
                display: 'inline-block',
                width: 12,
                height: 12,
                background: colour(i),
                borderRadius: 2,
              }}
            />
            <Typography.Text>{currency}</Typography.Text>
          </Space>
        ))}
      </Space>
      <Chart summary={summary}>
        <BarChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} />
          {data.currencies.map((currency, i) => (
            <YAxis
              key={currency}
              yAxisId={currency}
              orientation={i % 2 === 0 ? 'left' : 'right'}
              hide={i > 1}
              width={64}
              tick={{ fontSize: 12 }}
              label={{
                value: currency,
                angle: -90,
                position: i % 2 === 0 ? 'insideLeft' : 'insideRight',
                style: { fontSize: 12 },
              }}
              tickFormatter={(value) => compact.format(toMajorUnits(Number(value), currency))}
            />
          ))}
          <Tooltip
            formatter={(value, name) => [
              formatMoney(Number(value), String(name), i18n.language),
              String(name),
            ]}
          />
          {data.currencies.map((currency, i) => (
            <Bar
              key={currency}
              yAxisId={currency}
              dataKey={currency}
              name={currency}
              fill={colour(i)}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </Chart>
    </>
  );
}

function FigureBody({ figure }: { figure: DashboardFigure }) {
  const { t } = useTranslation();
  const valueLabel = t(`dashboard.figures.${figure.key}.value`, { defaultValue: '' });
  switch (figure.kind) {
    case 'counts':
      return <CountsFigure data={figure.data as CountsData} valueLabel={valueLabel} />;
    case 'series':
      return <SeriesFigure data={figure.data as SeriesData} valueLabel={valueLabel} />;
    case 'list':
      return <ListFigure figure={figure} data={figure.data as ListData} />;
    case 'money':
      return <MoneyFigure figure={figure} data={figure.data as MoneyData} />;
    case 'money_series':
      return <MoneySeriesFigure data={figure.data as MoneySeriesData} />;
  }
}

/**
 * The dashboard (`/dashboard`, data `/api/dashboard/show`): a card per figure the server answered for the caller's
 * branch scope, drawn by its kind (recharts, loaded with this screen only), each titled and linking to the list or
 * report that explains it.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const data = useLoaderData() as Partial<DashboardAnswer>;
  useScreenTitle(t('dashboard.title'));
  const figures = data.figures ?? [];
  return (
    <div data-testid="dashboard">
      <PageHeader title={t('dashboard.title')} />
      {figures.length === 0 ? (
        <Empty description={t('dashboard.empty')} />
      ) : (
        <Row gutter={[16, 16]}>
          {figures.map((figure) => (
            <Col key={figure.key} xs={24} xl={12}>
              <Card
                title={
                  <h2 style={{ fontSize: 16, margin: 0 }}>{t(`dashboard.figures.${figure.key}.title`)}</h2>
                }
                extra={
                  figure.link ? (
                    <Link
                      to={figure.link}
                      aria-label={t('common.labelled', {
                        label: t('dashboard.details'),
                        value: t(`dashboard.figures.${figure.key}.title`),
                      })}
                    >
                      {t('dashboard.details')}
                    </Link>
                  ) : null
                }
                data-testid={`dashboard-figure-${figure.key}`}
              >
                <FigureBody figure={figure} />
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
