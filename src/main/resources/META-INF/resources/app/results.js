// A tool result as a table, a chart and downloads. Values are always set as text (textContent), never as HTML.

const NUMERIC = /^(int2|int4|int8|smallint|integer|bigint|numeric|decimal|real|float4|float8|double precision|money|oid)/i;
const TEMPORAL = /^(date|timestamp|timestamptz|time)/i;
const LONG_VALUE = 120;

/** Whether a tool result is a query result this module can show: {columns:[{name,type,key}], rows:[{key:value}]}. */
export function isTable(result) {
  return result && typeof result === 'object' && Array.isArray(result.columns) && Array.isArray(result.rows);
}

function isNumericColumn(column, rows) {
  if (NUMERIC.test(column.type || '')) {
    return true;
  }
  return !column.type && rows.length > 0
    && rows.every((row) => row[column.key] === null || typeof row[column.key] === 'number' || isRaw(row[column.key]));
}

/** Whether `value` is an exact number kept by parseExact (a JSON.rawJSON value). */
function isRaw(value) {
  return value !== null && typeof value === 'object' && typeof JSON.isRawJSON === 'function' && JSON.isRawJSON(value);
}

/** A value as the text the service sent: exact numbers with all their digits. */
function text(value) {
  if (value === null || value === undefined) {
    return '';
  }
  if (isRaw(value)) {
    return value.rawJSON;
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A value as a number for sorting and charts (exact numbers lose digits only here). */
function num(value) {
  return Number(isRaw(value) ? value.rawJSON : value);
}

/** A sortable table of the result. */
export function renderTable(result) {
  const table = document.createElement('table');
  table.className = 'result';
  const numeric = result.columns.map((column) => isNumericColumn(column, result.rows));
  const head = table.createTHead().insertRow();
  const body = table.createTBody();
  let sortedBy = -1;
  let ascending = true;
  const fill = (rows) => {
    body.replaceChildren();
    for (const row of rows) {
      const tr = body.insertRow();
      result.columns.forEach((column, i) => {
        const td = tr.insertCell();
        const value = row[column.key];
        if (numeric[i]) {
          td.className = 'num';
        }
        if (value === null || value === undefined) {
          const nul = document.createElement('span');
          nul.className = 'null';
          nul.textContent = 'NULL';
          td.append(nul);
          return;
        }
        const shown = text(value);
        if (shown.length > LONG_VALUE) {
          const short = document.createElement('span');
          short.textContent = shown.slice(0, LONG_VALUE) + '…';
          const more = document.createElement('button');
          more.type = 'button';
          more.className = 'link';
          more.textContent = 'more';
          more.setAttribute('aria-label', 'Show the whole value');
          more.addEventListener('click', () => {
            td.textContent = shown;
          });
          td.append(short, ' ', more);
        } else {
          td.textContent = shown;
        }
      });
    }
  };
  result.columns.forEach((column, i) => {
    const th = document.createElement('th');
    th.scope = 'col';
    if (numeric[i]) {
      th.className = 'num';
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = column.name;
    button.title = column.type ? `${column.name} (${column.type}): sort` : `${column.name}: sort`;
    button.addEventListener('click', () => {
      ascending = sortedBy === i ? !ascending : true;
      sortedBy = i;
      head.querySelectorAll('th').forEach((cell) => cell.removeAttribute('aria-sort'));
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      const key = column.key;
      const sorted = [...result.rows].sort((a, b) => {
        const x = a[key];
        const y = b[key];
        if (x === y) return 0;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        const order = numeric[i] ? num(x) - num(y) : text(x).localeCompare(text(y));
        return ascending ? order : -order;
      });
      fill(sorted);
    });
    th.append(button);
    head.append(th);
  });
  fill(result.rows);
  return table;
}

/** The result's columns split by kind: the numeric ones, and the others (text, dates, ...) in their order. */
function columnsByKind(result) {
  const numeric = result.columns.filter((c) => isNumericColumn(c, result.rows));
  return { numeric, others: result.columns.filter((c) => !numeric.includes(c)) };
}

/** The column a chart's categories or times come from: the first time column, else the first non-numeric one. */
function labelColumn(others) {
  return others.find((c) => TEMPORAL.test(c.type || '')) || others[0];
}

/**
 * The chart kinds that fit the result's shape, best first: a time column with numbers → line or bar;
 * a category column with one number → bar, pie or line, with several → bar or line; numbers only → scatter.
 * Empty when none fits (a single row or a single column).
 */
export function chartKinds(result) {
  if (result.rows.length < 2 || result.columns.length < 2) {
    return [];
  }
  const { numeric, others } = columnsByKind(result);
  if (others.length === 0) {
    return numeric.length >= 2 ? ['scatter'] : [];
  }
  if (numeric.length === 0) {
    return [];
  }
  if (TEMPORAL.test(labelColumn(others).type || '')) {
    return ['line', 'bar'];
  }
  return numeric.length === 1 ? ['bar', 'pie', 'line'] : ['bar', 'line'];
}

/** More bars than this are not drawn without being asked: the table reads better. */
const MAX_SHOWN_BARS = 40;

/**
 * The chart shown with the answer when the result's shape suits one, else null (the table is shown):
 * one time column and numbers → line; one category column and numbers → bar (up to {@link MAX_SHOWN_BARS}
 * rows). A single value, several text columns or numbers alone are shown as a table; their charts, if any,
 * stay a choice.
 */
export function suggestedChart(result) {
  const kinds = chartKinds(result);
  const { others } = columnsByKind(result);
  if (kinds.length === 0 || others.length !== 1) {
    return null;
  }
  if (kinds[0] === 'line') {
    return 'line';
  }
  return result.rows.length <= MAX_SHOWN_BARS ? 'bar' : null;
}

/** A chart's title from its columns: "tracks by genre", "total, invoices by month". */
export function chartTitle(result) {
  const { numeric, others } = columnsByKind(result);
  if (others.length === 0) {
    return numeric.length >= 2 ? `${numeric[1].name} against ${numeric[0].name}` : '';
  }
  return `${numeric.map((c) => c.name).join(', ')} by ${labelColumn(others).name}`;
}

/**
 * The tooltip as elements (ECharts' own is HTML with inline style attributes, which the page's
 * Content-Security-Policy refuses): a heading, then a row per series with its colour, name and value as
 * the service sent it. Styled by style.css; the marker's colour is set through the DOM, which the policy allows.
 */
function tooltip(heading, items) {
  const box = document.createElement('div');
  box.className = 'tip';
  if (heading) {
    const title = document.createElement('div');
    title.className = 'tip-title';
    title.textContent = heading;
    box.append(title);
  }
  for (const item of items) {
    const row = document.createElement('div');
    row.className = 'tip-row';
    const marker = document.createElement('span');
    marker.className = 'tip-marker';
    marker.style.backgroundColor = item.color;
    const label = document.createElement('span');
    label.className = 'tip-label';
    label.textContent = item.label;
    const value = document.createElement('span');
    value.className = 'tip-value';
    value.textContent = item.value;
    row.append(marker, label, value);
    box.append(row);
  }
  return box;
}

/**
 * Draws the result as a chart of `kind` into `element` with ECharts; returns the chart. Drawn on a canvas:
 * ECharts' SVG renderer writes style attributes, which the page's Content-Security-Policy refuses.
 */
export function renderChart(element, result, kind, dark) {
  const echarts = window.echarts;
  const chart = echarts.init(element, dark ? 'dark' : null, { renderer: 'canvas' });
  const { numeric, others } = columnsByKind(result);
  const title = chartTitle(result);
  let option;
  if (kind === 'scatter') {
    const [x, y] = numeric;
    option = {
      tooltip: {
        trigger: 'item',
        formatter: (p) => tooltip('', [{ color: p.color, label: x.name, value: text(result.rows[p.dataIndex][x.key]) },
          { color: p.color, label: y.name, value: text(result.rows[p.dataIndex][y.key]) }]),
      },
      xAxis: { type: 'value', name: x.name, nameLocation: 'middle', nameGap: 28 },
      yAxis: { type: 'value', name: y.name },
      series: [{ type: 'scatter', data: result.rows.map((row) => [num(row[x.key]), num(row[y.key])]) }],
    };
  } else if (kind === 'pie') {
    const label = labelColumn(others);
    const value = numeric[0];
    option = {
      tooltip: {
        trigger: 'item',
        formatter: (p) => tooltip(p.name, [{ color: p.color, label: value.name, value: `${text(result.rows[p.dataIndex][value.key])} (${p.percent}%)` }]),
      },
      series: [{ type: 'pie', radius: '60%', top: 30, data: result.rows.map((row) => ({ name: text(row[label.key]), value: num(row[value.key]) })) }],
    };
  } else {
    const label = labelColumn(others);
    option = {
      tooltip: {
        trigger: 'axis',
        formatter: (params) => tooltip(params[0]?.name, params.map((p) => ({
          color: p.color, label: p.seriesName, value: text(result.rows[p.dataIndex][numeric[p.seriesIndex].key]),
        }))),
      },
      legend: numeric.length > 1 ? { data: numeric.map((c) => c.name), top: 24 } : undefined,
      grid: { top: numeric.length > 1 ? 64 : 48, left: 16, right: 24, bottom: 40, containLabel: true },
      xAxis: { type: 'category', name: label.name, nameLocation: 'middle', nameGap: 28, data: result.rows.map((row) => text(row[label.key])) },
      yAxis: { type: 'value', name: numeric.length === 1 ? numeric[0].name : '' },
      series: numeric.map((c) => ({ name: c.name, type: kind, data: result.rows.map((row) => num(row[c.key])) })),
    };
  }
  option.title = { text: title, left: 'center', textStyle: { fontSize: 14 } };
  // The tooltip stays inside the chart, where ECharts draws no arrow (its arrow is HTML with a style attribute).
  option.tooltip.confine = true;
  option.tooltip.className = 'chart-tip';
  option.backgroundColor = 'transparent';
  option.animation = false; // the chart is final when drawn: what a screenshot or a screen reader reads is the data
  option.aria = { enabled: true };
  chart.setOption(option);
  return chart;
}

/** What a spreadsheet reads as the start of a formula (OWASP's list for CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number, which a spreadsheet reads as a number even with a sign: no formula, left as it is. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * One CSV cell. Text a spreadsheet would run as a formula (`=HYPERLINK(…)`, `@SUM(…)`, `-2+3`, a leading tab or
 * carriage return) is neutralised as OWASP recommends: a single quote before it and the cell quoted, so the file
 * opens as the text the database holds. Plain numbers such as `-1.5` stay numbers.
 */
function csvCell(value) {
  const shown = text(value);
  if (FORMULA_START.test(shown) && !PLAIN_NUMBER.test(shown)) {
    return `"'${shown.replaceAll('"', '""')}"`;
  }
  return /[",\r\n]/.test(shown) ? `"${shown.replaceAll('"', '""')}"` : shown;
}

/**
 * The result as CSV (RFC 4180: quoted where needed, quotes doubled, CRLF line ends), names in the first line; cells
 * that would run as formulas are neutralised ({@link csvCell}).
 */
export function toCsv(result) {
  const lines = [result.columns.map((c) => csvCell(c.name)).join(',')];
  for (const row of result.rows) {
    lines.push(result.columns.map((c) => csvCell(row[c.key])).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** Offers `content` to the user as a file download. */
export function download(name, type, content) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
