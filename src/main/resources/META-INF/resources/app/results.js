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

/**
 * The chart kinds that fit the result's shape, best first: a time or category column with numbers
 * → line or bar; one category and one number → bar or pie; two numbers → scatter. Empty when none fits.
 */
export function chartKinds(result) {
  const columns = result.columns;
  if (result.rows.length < 2 || columns.length < 2) {
    return [];
  }
  const numericCols = columns.filter((c) => isNumericColumn(c, result.rows));
  const first = columns[0];
  const firstNumeric = isNumericColumn(first, result.rows);
  if (!firstNumeric && TEMPORAL.test(first.type || '') && numericCols.length > 0) {
    return ['line', 'bar'];
  }
  if (!firstNumeric && numericCols.length === 1) {
    return ['bar', 'pie', 'line'];
  }
  if (!firstNumeric && numericCols.length > 1) {
    return ['bar', 'line'];
  }
  if (numericCols.length >= 2) {
    return ['scatter'];
  }
  return [];
}

/** Draws the result as a chart of `kind` into `element` with ECharts; returns the chart. */
export function renderChart(element, result, kind, dark) {
  const columns = result.columns;
  const echarts = window.echarts;
  const chart = echarts.init(element, dark ? 'dark' : null, { renderer: 'svg' });
  const numericCols = columns.filter((c) => isNumericColumn(c, result.rows));
  let option;
  if (kind === 'scatter') {
    const [x, y] = numericCols;
    option = {
      xAxis: { type: 'value', name: x.name },
      yAxis: { type: 'value', name: y.name },
      series: [{ type: 'scatter', data: result.rows.map((row) => [num(row[x.key]), num(row[y.key])]) }],
    };
  } else if (kind === 'pie') {
    const label = columns[0];
    const value = numericCols[0];
    option = {
      tooltip: { trigger: 'item' },
      series: [{ type: 'pie', radius: '65%', data: result.rows.map((row) => ({ name: text(row[label.key]), value: num(row[value.key]) })) }],
    };
  } else {
    const label = columns[0];
    const values = numericCols.filter((c) => c !== label);
    option = {
      tooltip: { trigger: 'axis' },
      legend: values.length > 1 ? { data: values.map((c) => c.name) } : undefined,
      xAxis: { type: 'category', data: result.rows.map((row) => text(row[label.key])) },
      yAxis: { type: 'value' },
      series: values.map((c) => ({ name: c.name, type: kind, data: result.rows.map((row) => num(row[c.key])) })),
    };
  }
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
