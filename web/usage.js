/**
 * The usage page: the key's quota this month (GET /api/v1/account) and its requests per day and
 * errors by code (GET /api/v1/account/usage), the days drawn as an SVG bar chart.
 */
import { asFailure, callJson, failureLine, getKey } from './api.js';
import { append, byId, h, replace, svg } from './dom.js';

const WIDTH = 720;
const HEIGHT = 260;
const MARGIN = { top: 16, right: 12, bottom: 40, left: 44 };

/** A round top for the axis: 1, 2, 5, 10, 20, 50, ... at or above the largest day. */
function axisTop(max) {
  if (max <= 4) return Math.max(max, 1);
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/**
 * The chart: one bar per day, its requests, the errors among them stacked in another colour.
 * @param {{ date: string, requests: number, documents: number, errors: number }[]} days
 * @param {string} today YYYY-MM-DD (UTC)
 */
export function chart(days, today) {
  const top = axisTop(Math.max(0, ...days.map((d) => d.requests)));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / Math.max(days.length, 1);
  const barWidth = Math.max(Math.min(slot * 0.7, 40), 1);
  const y = (value) => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const total = days.reduce((n, d) => n + d.requests, 0);
  const errors = days.reduce((n, d) => n + d.errors, 0);
  const busiest = days.reduce((best, d) => (d.requests > best.requests ? d : best), days[0]);

  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'img',
    'aria-labelledby': 'usage-chart-title usage-chart-desc',
    class: 'chart',
  });
  append(
    root,
    svg('title', { id: 'usage-chart-title' }, `Requests per day over ${days.length} days (UTC)`),
    svg(
      'desc',
      { id: 'usage-chart-desc' },
      `${total} requests, ${errors} of them errors.` +
        (busiest && busiest.requests > 0
          ? ` Busiest day ${busiest.date} with ${busiest.requests}.`
          : ''),
    ),
  );
  const ticks = top <= 4 ? Array.from({ length: top + 1 }, (_, i) => i) : [0, top / 2, top];
  for (const tick of ticks) {
    append(
      root,
      svg('line', {
        class: 'grid',
        x1: MARGIN.left,
        x2: WIDTH - MARGIN.right,
        y1: y(tick),
        y2: y(tick),
      }),
      svg(
        'text',
        { class: 'axis', x: MARGIN.left - 6, y: y(tick) + 4, 'text-anchor': 'end' },
        String(tick),
      ),
    );
  }
  const labelEvery = Math.ceil(days.length / 10);
  days.forEach((day, i) => {
    const x = MARGIN.left + i * slot + (slot - barWidth) / 2;
    const group = svg('g', {
      class: day.date === today ? 'day today' : 'day',
      'data-date': day.date,
      'data-requests': day.requests,
      'data-errors': day.errors,
    });
    append(
      group,
      svg(
        'title',
        {},
        `${day.date}: ${day.requests} request${day.requests === 1 ? '' : 's'}, ` +
          `${day.documents} document${day.documents === 1 ? '' : 's'}, ${day.errors} error${day.errors === 1 ? '' : 's'}`,
      ),
    );
    const ok = day.requests - day.errors;
    if (ok > 0) {
      append(
        group,
        svg('rect', {
          class: 'bar bar-ok',
          x,
          width: barWidth,
          y: y(day.requests),
          height: y(day.errors) - y(day.requests),
        }),
      );
    }
    if (day.errors > 0) {
      append(
        group,
        svg('rect', {
          class: 'bar bar-error',
          x,
          width: barWidth,
          y: y(day.errors),
          height: y(0) - y(day.errors),
        }),
      );
    }
    if (i % labelEvery === 0 || day.date === today) {
      append(
        group,
        svg(
          'text',
          {
            class: 'axis',
            x: x + barWidth / 2,
            y: HEIGHT - MARGIN.bottom + 16,
            'text-anchor': 'middle',
          },
          day.date.slice(5),
        ),
      );
    }
    append(root, group);
  });
  append(
    root,
    svg('line', {
      class: 'baseline',
      x1: MARGIN.left,
      x2: WIDTH - MARGIN.right,
      y1: y(0),
      y2: y(0),
    }),
  );
  return root;
}

function dayTable(days) {
  return h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, 'Requests, documents and errors per day (UTC)'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Day (UTC)', 'Requests', 'Documents', 'Errors'].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      [...days]
        .reverse()
        .map((d) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, d.date),
            h('td', {}, d.requests),
            h('td', {}, d.documents),
            h('td', {}, d.errors),
          ),
        ),
    ),
  );
}

export function setUpUsage({ announce, showQuota }) {
  const status = byId('usage-status');
  const error = byId('usage-error');
  const daysSelect = /** @type {HTMLSelectElement} */ (byId('usage-days'));

  const load = async () => {
    replace(error);
    if (getKey() === '') {
      announce(status, '');
      append(error, h('p', { class: 'error' }, 'Paste your API key (above) to see its usage.'));
      byId('usage-content').hidden = true;
      return;
    }
    announce(status, 'Loading usage…');
    try {
      const [account, usage] = await Promise.all([
        callJson('/api/v1/account'),
        callJson(`/api/v1/account/usage?days=${encodeURIComponent(daysSelect.value)}`),
      ]);
      const a = account.body;
      showQuota(a.quota.used, a.quota.remaining);
      byId('quota-used').textContent = String(a.quota.used);
      byId('quota-remaining').textContent = String(a.quota.remaining);
      byId('quota-limit').textContent = String(a.quota.limit);
      const meter = /** @type {HTMLMeterElement} */ (byId('quota-meter'));
      meter.max = Math.max(a.quota.limit, 1);
      meter.value = Math.min(a.quota.used, meter.max);
      meter.high = meter.max * 0.9;
      meter.textContent = `${a.quota.used} of ${a.quota.limit}`;
      byId('account-month').textContent = a.month;
      replace(
        byId('account-details'),
        h('div', {}, h('dt', {}, 'Organisation'), h('dd', {}, a.organisation)),
        h(
          'div',
          {},
          h('dt', {}, 'Key'),
          h('dd', {}, `${a.key.prefix}_…${a.key.last4} (${a.key.id})`),
        ),
        h('div', {}, h('dt', {}, 'Requests per minute'), h('dd', {}, a.requests_per_minute)),
        h('div', {}, h('dt', {}, 'Paid until'), h('dd', {}, a.paid_until ?? 'no end date')),
      );
      const days = usage.body.days;
      // The period ends with the service's today (UTC), whatever this device's clock says.
      const today = days.at(-1)?.date ?? '';
      replace(byId('usage-chart'), chart(days, today));
      replace(byId('usage-table'), dayTable(days));
      const byCode = usage.body.errors_by_code;
      replace(
        byId('errors-by-code'),
        byCode.length === 0
          ? h('p', { class: 'note' }, 'No errors in this period.')
          : h(
              'table',
              {},
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  h('th', { scope: 'col' }, 'Error code'),
                  h('th', { scope: 'col' }, 'Requests'),
                ),
              ),
              h(
                'tbody',
                {},
                byCode.map((e) =>
                  h(
                    'tr',
                    { 'data-error': e.error },
                    h('th', { scope: 'row' }, h('code', {}, e.error)),
                    h('td', {}, e.count),
                  ),
                ),
              ),
            ),
      );
      byId('usage-content').hidden = false;
      announce(
        status,
        `Usage loaded: ${a.quota.used} of ${a.quota.limit} documents used this month.`,
      );
    } catch (failure) {
      const f = asFailure(failure);
      announce(status, 'The usage could not be loaded.');
      append(error, failureLine(f));
    }
  };
  daysSelect.addEventListener('change', () => void load());
  byId('usage-refresh').addEventListener('click', () => void load());
  return { load };
}
