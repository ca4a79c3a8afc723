import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable } from './DataTable';

describe('DataTable', () => {
  it('names the table by its caption and fills a cell per column and row', () => {
    render(
      <DataTable<{ id: string; day: string; value: number }>
        caption="Blood pressure readings"
        columns={[
          { header: 'Day', cell: (r) => r.day, nowrap: true },
          { header: 'Value', cell: (r) => `${r.value} mm Hg` },
        ]}
        rows={[
          { id: 'a', day: 'Monday', value: 120 },
          { id: 'b', day: 'Tuesday', value: 131 },
        ]}
        rowKey={(r) => r.id}
      />,
    );
    const table = screen.getByRole('table', { name: 'Blood pressure readings' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Day', 'Value']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Monday', '120 mm Hg'],
      ['Tuesday', '131 mm Hg'],
    ]);
    const [day, value] = within(rows[0] as HTMLElement).getAllByRole('cell');
    expect(day).toHaveClass('table__nowrap');
    expect(value).not.toHaveClass('table__nowrap');
  });
});
