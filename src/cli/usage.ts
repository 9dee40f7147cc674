/** `parda usage`: a summary of the usage log, per organisation, for one month. */
import type { Command } from 'commander';
import { monthOf } from '../accounts/calendar.js';
import { withStore, type GlobalOptions } from './context.js';
import { month } from './parse.js';

export function registerUsageCommand(program: Command, global: () => GlobalOptions): void {
  program
    .command('usage')
    .description('summarise the usage log for a month (UTC)')
    .option('--org <name>', 'only this organisation')
    .option('--month <yyyy-mm>', 'the month; default: this month', month)
    .option('--json', 'print JSON', false)
    .action(async (options: { org?: string; month?: string; json: boolean }) => {
      await withStore(global(), async (store) => {
        const period = options.month ?? monthOf(new Date());
        const rows = await store.usageSummary(period, options.org);
        if (options.json) {
          console.log(JSON.stringify({ month: period, organisations: rows }, null, 2));
          return;
        }
        const header = [
          'organisation',
          'requests',
          '2xx/3xx',
          '4xx',
          '5xx',
          'charged',
          'MB in',
          'avg ms',
        ];
        const table = rows.map((r) => [
          r.organisation ?? '(no key)',
          String(r.requests),
          String(r.succeeded),
          String(r.clientErrors),
          String(r.serverErrors),
          String(r.documentsCharged),
          (r.bytesIn / 1_048_576).toFixed(1),
          String(r.averageMs),
        ]);
        const widths = header.map((h, i) =>
          Math.max(h.length, ...table.map((row) => row[i]?.length ?? 0)),
        );
        const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
        console.log(`Usage for ${period}${options.org ? ` (${options.org})` : ''}`);
        console.log(line(header));
        for (const row of table) console.log(line(row));
        if (table.length === 0) console.log('(no requests)');
      });
    });
}
