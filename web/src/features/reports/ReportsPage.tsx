import { Activity, Archive, ClipboardCheck, Download, FileText, TriangleAlert, Users } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ReportSummary } from '../../api/client';
import { DoctorsOnly } from '../../components/DoctorsOnly';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { StatGrid } from '../../components/StatGrid';
import { Spinner } from '../../components/Spinner';
import {
  exportAllUrl,
  exportCsvUrl,
  PERIODS,
  periodStart,
  useReportHistory,
  useReportSummary,
  type Period,
} from './api';
import { formatDateTime } from '../../lib/format';
import { useCurrentUser } from '../../lib/session';

const MODALITIES = ['ecg', 'pcg', 'ppg', 'clinical'] as const;
type ModalityKey = (typeof MODALITIES)[number];
/** Each modality's colour comes from the theme's CSS variables through these classes (SVG and legend). */
const fillClass = (key: ModalityKey) => `chart-fill chart-fill--${key}`;
const swatchClass = (key: ModalityKey) => `reports__swatch chart-swatch--${key}`;

/** A share as a one-decimal percentage, or an en dash with nothing to divide. */
function share(part: number, total: number): string {
  return total > 0 ? `${((part / total) * 100).toFixed(1)}%` : '–';
}

/** "2026-06" as a short month name in the user's language. */
function monthLabel(key: string, locale: string): string {
  const [year, month] = key.split('-').map(Number);
  if (!year || !month) return key;
  return new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, 1)),
  );
}

function Figures({ summary }: { summary: ReportSummary }) {
  const { t } = useTranslation();
  const stats = [
    { key: 'analyses', value: String(summary.total_analyses), icon: <Activity size={24} /> },
    {
      key: 'screenings',
      value: t('reports.figures.screeningsValue', {
        completed: summary.screenings_completed,
        total: summary.screenings,
      }),
      icon: <ClipboardCheck size={24} />,
    },
    { key: 'patients', value: String(summary.patients), icon: <Users size={24} /> },
    {
      key: 'abnormal',
      value: share(summary.abnormal, summary.total_analyses),
      icon: <TriangleAlert size={24} />,
    },
    {
      key: 'inconclusive',
      value: share(summary.inconclusive, summary.total_analyses),
      icon: <TriangleAlert size={24} />,
    },
    { key: 'pendingReview', value: String(summary.pending_review), icon: <FileText size={24} /> },
  ] as const;
  return (
    <StatGrid
      stats={stats.map((stat) => ({ ...stat, label: t(`reports.figures.${stat.key}`) }))}
      label={t('reports.figures.label')}
    />
  );
}

function Distribution({ summary }: { summary: ReportSummary }) {
  const { t } = useTranslation();
  const data = MODALITIES.map((key) => ({
    key,
    name: t(`reports.modalities.${key}`),
    value: summary.by_modality[key],
  }));
  return (
    <section className="card" aria-labelledby="reports-distribution">
      <h2 id="reports-distribution" className="section__title">
        {t('reports.distribution')}
      </h2>
      <div className="reports__chart" aria-hidden="true">
        <ResponsiveContainer width="100%" height={220}>
          <PieChart>
            <Pie
              data={data.filter((d) => d.value > 0)}
              dataKey="value"
              nameKey="name"
              innerRadius={50}
              outerRadius={85}
              isAnimationActive={false}
              stroke="none"
            >
              {data
                .filter((d) => d.value > 0)
                .map((d) => (
                  <Cell key={d.key} className={fillClass(d.key)} />
                ))}
            </Pie>
            <Tooltip />
          </PieChart>
        </ResponsiveContainer>
      </div>
      <ul className="reports__legend">
        {data.map((d) => (
          <li key={d.key}>
            <span className={swatchClass(d.key)} aria-hidden="true" />
            {t('reports.distributionItem', {
              name: d.name,
              count: d.value,
              share: share(d.value, summary.total_analyses),
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}

function MonthlyVolumes({ summary }: { summary: ReportSummary }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? 'en';
  const data = summary.monthly.map((m) => ({ month: monthLabel(m.month, locale), ...m.analyses }));
  return (
    <section className="card" aria-labelledby="reports-monthly">
      <h2 id="reports-monthly" className="section__title">
        {t('reports.monthly')}
      </h2>
      <div className="reports__chart" aria-hidden="true">
        <ResponsiveContainer width="100%" height={260}>
          <BarChart data={data}>
            <CartesianGrid strokeDasharray="3 3" className="chart-grid" />
            <XAxis dataKey="month" tick={{ fill: 'currentColor' }} />
            <YAxis allowDecimals={false} tick={{ fill: 'currentColor' }} />
            <Tooltip cursor={{ fillOpacity: 0.1 }} />
            {MODALITIES.map((key) => (
              <Bar
                key={key}
                dataKey={key}
                name={t(`reports.modalities.${key}`)}
                stackId="a"
                className={fillClass(key)}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">{t('reports.monthlyCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('reports.month')}</th>
              {MODALITIES.map((key) => (
                <th key={key} scope="col">
                  {t(`reports.modalities.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((row) => (
              <tr key={row.month}>
                <th scope="row">{row.month}</th>
                {MODALITIES.map((key) => (
                  <td key={key}>{row[key]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Every PDF generated, with the link to download it again (regenerated with the current review). */
function ReportHistory() {
  const { t } = useTranslation();
  const history = useReportHistory();
  let body;
  if (history.isPending) body = <Spinner label={t('app.loading')} />;
  else if (history.isError) body = <p className="muted">{t('reports.historyError')}</p>;
  else if (history.data.length === 0) body = <p className="muted">{t('reports.historyEmpty')}</p>;
  else
    body = (
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">{t('reports.historyCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('reports.generatedAt')}</th>
              <th scope="col">{t('reports.reportKind')}</th>
              <th scope="col">{t('reports.patient')}</th>
              <th scope="col">{t('reports.download')}</th>
            </tr>
          </thead>
          <tbody>
            {history.data.map((report) => (
              <tr key={`${report.generated_at}-${report.id}`}>
                <td className="table__nowrap">{formatDateTime(report.generated_at)}</td>
                <td>{t(`reports.kinds.${report.kind === 'screening' ? 'screening' : 'analysis'}`)}</td>
                <td>{report.patient_name ?? '—'}</td>
                <td>
                  <a className="button button--secondary button--small" href={report.url} download>
                    <Download size={14} aria-hidden="true" /> {t('reports.download')}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  return (
    <section className="card" aria-labelledby="reports-history">
      <h2 id="reports-history" className="section__title">
        {t('reports.history')}
      </h2>
      {body}
    </section>
  );
}

/** Reports (spec §2), from stored data only: figures, distribution, monthly volumes, CSV export. */
/** Reports are the doctor's figures: a patient account is told so, and none of them is requested. */
export function ReportsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  if (user.role !== 'doctor') {
    return (
      <div className="page">
        <PageHeader title={t('reports.title')} />
        <DoctorsOnly />
      </div>
    );
  }
  return <DoctorReports />;
}

function DoctorReports() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<Period>('all');
  // The period's start is fixed when it is chosen, so the query key does not change every render.
  const [from, setFrom] = useState<number | undefined>(undefined);
  const summary = useReportSummary(from);
  const choose = (next: Period) => {
    setPeriod(next);
    setFrom(periodStart(next, new Date()));
  };

  let body;
  if (summary.isPending) body = <Spinner label={t('app.loading')} />;
  else if (summary.isError) body = <p className="muted">{t('reports.loadError')}</p>;
  else if (summary.data.total_analyses === 0 && summary.data.screenings === 0)
    body = (
      <div className="card">
        <EmptyState icon={<FileText size={28} />} title={t('reports.emptyTitle')} text={t('reports.emptyText')} />
      </div>
    );
  else
    body = (
      <>
        <Figures summary={summary.data} />
        <div className="reports__grid">
          <Distribution summary={summary.data} />
          <MonthlyVolumes summary={summary.data} />
        </div>
      </>
    );

  return (
    <div className="page">
      <PageHeader
        title={t('reports.title')}
        subtitle={t('reports.subtitle')}
        actions={
          <>
            <a className="button button--secondary" href={exportCsvUrl(from)} download>
              <Download size={16} aria-hidden="true" /> {t('reports.exportCsv')}
            </a>
            <a className="button button--primary" href={exportAllUrl(from)} title={t('reports.exportAllHint')} download>
              <Archive size={16} aria-hidden="true" /> {t('reports.exportAll')}
            </a>
          </>
        }
      />
      <div className="filter-bar" role="group" aria-label={t('reports.periodLabel')}>
        {PERIODS.map((value) => (
          <button
            key={value}
            type="button"
            className={`chip${period === value ? ' chip--active' : ''}`}
            aria-pressed={period === value}
            onClick={() => choose(value)}
          >
            {t(`reports.periods.${value}`)}
          </button>
        ))}
      </div>
      {body}
      <ReportHistory />
    </div>
  );
}
