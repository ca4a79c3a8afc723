import type { ReactNode } from 'react';

/** One figure of a stat grid: its value, its (translated) label and an icon. */
export interface Stat {
  key: string;
  value: ReactNode;
  label: string;
  icon: ReactNode;
}

/** A row of figure cards (home, profile, reports). */
export function StatGrid({ stats, label }: { stats: readonly Stat[]; label?: string }) {
  return (
    <ul className="stat-grid" aria-label={label}>
      {stats.map(({ key, value, label: text, icon }) => (
        <li key={key} className="card stat-card">
          <span className="stat-card__icon" aria-hidden="true">
            {icon}
          </span>
          <div>
            <p className="stat-card__value">{value}</p>
            <p className="stat-card__label">{text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
