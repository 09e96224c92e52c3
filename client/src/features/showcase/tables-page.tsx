import { useMemo } from 'react';
import { Table, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Showcase, DOCUMENT_STATUSES } from './showcase-frame';

interface DemoRow {
  key: number;
  no: string;
  document: string;
  amount: number;
  status: (typeof DOCUMENT_STATUSES)[number];
}

export default function TablesPage() {
  const { t } = useTranslation();
  const rows = useMemo<DemoRow[]>(
    () =>
      Array.from({ length: 24 }, (_, i) => ({
        key: i + 1,
        no: `D${String(i + 1).padStart(4, '0')}`,
        document: t(`showcase.tables.documents.${['passport', 'photo', 'transcript', 'certificate'][i % 4]}`),
        amount: ((i * 37) % 11) * 250 + 500,
        status: DOCUMENT_STATUSES[i % DOCUMENT_STATUSES.length],
      })),
    [t],
  );
  const columns: TableColumnsType<DemoRow> = [
    { title: t('showcase.tables.no'), dataIndex: 'no', sorter: (a, b) => a.no.localeCompare(b.no) },
    { title: t('showcase.tables.document'), dataIndex: 'document' },
    {
      title: t('showcase.tables.amount'),
      dataIndex: 'amount',
      align: 'right',
      sorter: (a, b) => a.amount - b.amount,
      render: (v: number) => v.toLocaleString(undefined, { minimumFractionDigits: 2 }),
    },
    {
      title: t('showcase.tables.status'),
      dataIndex: 'status',
      render: (s: DemoRow['status']) => (
        <Tag color={s.color}>{`${s.letter} · ${t(`showcase.badges.status.${s.key}`)}`}</Tag>
      ),
    },
  ];
  return (
    <Showcase titleKey="showcase.tables.title" introKey="showcase.tables.intro">
      <Table<DemoRow>
        columns={columns}
        dataSource={rows}
        size="middle"
        scroll={{ x: 560 }}
        pagination={{ pageSize: 10, showTotal: (total) => t('showcase.tables.total', { count: total }) }}
      />
    </Showcase>
  );
}
