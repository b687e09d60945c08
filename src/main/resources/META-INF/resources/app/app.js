// The chat page: asks POST /api/chat, shows every event of the run as it arrives.
// Plain DOM code: every value from the model, the data or the service is set as text, except the
// answer's Markdown, which is rendered by marked and cleaned by DOMPurify before it is shown.
import { parseExact, readEvents } from './sse.js';
import { sinceNow, timeElement } from './time.js';
import { chartKinds, download, isTable, renderChart, renderTable, suggestedChart, toCsv } from './results.js';

const $ = (id) => document.getElementById(id);
const state = { conversationId: null, running: null, toolsets: [], nextPage: null, apiKey: sessionStorage.getItem('sqlagent.key') };
const dark = window.matchMedia('(prefers-color-scheme: dark)');

function headers(extra = {}) {
  const all = { ...extra };
  if (state.apiKey) {
    all.Authorization = `Bearer ${state.apiKey}`;
  }
  return all;
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: headers(options.headers) });
  if (response.status === 401) {
    showSignIn('The service needs you to sign in.');
  }
  return response;
}

async function errorText(response) {
  try {
    const body = await response.json();
    return `${body.message || body.error || response.statusText} (${body.error || response.status})`;
  } catch {
    return `HTTP ${response.status} ${response.statusText}`;
  }
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function notice(message) {
  const box = $('notice');
  box.textContent = message || '';
  box.hidden = !message;
}

// ---------- Markdown, safely ----------
function markdown(target, source) {
  const html = window.marked.parse(source, { gfm: true, breaks: false });
  // DOMPurify drops scripts, event handlers and javascript:/data: links; nothing from the model runs.
  target.innerHTML = window.DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'img', 'form', 'input'] });
  target.querySelectorAll('a').forEach((a) => {
    a.rel = 'noopener noreferrer';
    a.target = '_blank';
  });
}

// ---------- SQL ----------
/**
 * Puts each main clause of a one-line statement on its own line. Hand-written because no SQL
 * formatter is served as a webjar by the registry this project builds from (sql-formatter is not);
 * it only breaks lines before clause keywords outside quotes and leaves the text otherwise as sent.
 */
export function formatSql(sql) {
  if (sql.includes('\n')) {
    return sql;
  }
  const clauses = /^(select|from|where|group by|having|order by|limit|offset|union( all)?|intersect|except|with|(left |right |full |inner |cross )?(outer )?join|window)\b/i;
  let out = '';
  let quote = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (quote) {
      out += c;
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      out += c;
      continue;
    }
    if (i > 0 && /\s/.test(sql[i - 1]) && clauses.test(sql.slice(i)) && out.trim() !== '') {
      out = out.trimEnd() + '\n';
    }
    out += c;
  }
  return out;
}

function sqlBlock(sql) {
  const wrap = el('div', 'sql');
  const pre = el('pre');
  const code = el('code', 'language-sql', formatSql(sql));
  pre.append(code);
  if (window.hljs) {
    window.hljs.highlightElement(code);
  }
  const copy = el('button', 'small', 'Copy SQL');
  copy.type = 'button';
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(sql);
      copy.textContent = 'Copied';
    } catch {
      copy.textContent = 'Copy failed';
    }
    setTimeout(() => (copy.textContent = 'Copy SQL'), 1500);
  });
  wrap.append(pre, copy);
  return wrap;
}

// ---------- A run on the page ----------
class RunView {
  constructor(question) {
    this.root = el('article', 'run');
    this.root.append(el('p', 'question', question));
    this.steps = el('div', 'steps');
    this.answer = el('div', 'answer');
    this.answer.setAttribute('aria-live', 'polite');
    this.spinner = el('p', 'working', 'Working…');
    this.footer = el('p', 'meta');
    this.root.append(this.steps, this.answer, this.spinner, this.footer);
    this.text = '';
    this.thinking = null;
    this.calls = new Map();
    $('transcript').append(this.root);
  }

  scroll() {
    this.root.scrollIntoView({ block: 'end' });
  }

  think(delta) {
    if (!this.thinking) {
      const details = el('details', 'step thinking');
      details.append(el('summary', null, 'Thinking'));
      this.thinkingText = el('p', 'thinking-text');
      details.append(this.thinkingText);
      this.steps.append(details);
      this.thinking = details;
    }
    this.thinkingText.textContent += delta;
  }

  toolCall(call) {
    const details = el('details', 'step tool-call');
    details.dataset.tool = call.name;
    const summary = el('summary');
    summary.append(el('span', 'tool-name', call.name), el('span', 'tool-state', ' running…'));
    details.append(summary);
    const args = call.arguments || {};
    if (typeof args.sql === 'string') {
      details.append(sqlBlock(args.sql));
      const others = { ...args };
      delete others.sql;
      if (Object.keys(others).length > 0) details.append(el('pre', 'args', JSON.stringify(others, null, 2)));
    } else {
      details.append(el('pre', 'args', JSON.stringify(args, null, 2)));
    }
    this.steps.append(details);
    this.calls.set(call.id, { details, summary });
    this.scroll();
  }

  toolResult(event) {
    const entry = this.calls.get(event.id) || (this.toolCall({ id: event.id, name: event.name, arguments: {} }), this.calls.get(event.id));
    const stateText = entry.summary.querySelector('.tool-state');
    const parts = [`${event.duration_ms} ms`];
    const result = event.result;
    if (event.ok && isTable(result)) {
      parts.push(`${result.row_count} row${result.row_count === 1 ? '' : 's'}`);
      if (result.truncated) parts.push(`truncated: ${result.total_rows ?? 'more'} rows in all`);
    }
    if (event.truncated) parts.push('result cut for display');
    stateText.textContent = event.ok ? ` — ${parts.join(', ')}` : ` — failed (${event.outcome}), ${event.duration_ms} ms`;
    entry.details.classList.add(event.ok ? 'ok' : 'failed');
    if (!event.ok) {
      entry.details.append(el('p', 'error', event.error));
      entry.details.open = true;
      return;
    }
    if (isTable(result)) {
      const view = resultView(result, event.name);
      this.root.insertBefore(view.box, this.answer);
      view.shown();
    } else if (result !== undefined) {
      entry.details.append(el('pre', 'args', typeof result === 'string' ? result : JSON.stringify(result, null, 2)));
    }
    this.scroll();
  }

  content(delta) {
    this.text += delta;
    markdown(this.answer, this.text);
  }

  finish(message, error) {
    this.spinner.remove();
    if (error) {
      this.root.append(el('p', 'error', message));
    } else if (message) {
      this.footer.textContent = message;
    }
  }
}

/**
 * A result with its bar (table, chart kinds, downloads). The chart its shape suits, if any, is shown first; the
 * table is a click away. shown() draws it once the box is on the page, since a chart takes the size of its box.
 */
function resultView(result, tool) {
  const box = el('section', 'result-view');
  box.setAttribute('aria-label', `Result of ${tool}`);
  const bar = el('div', 'result-bar');
  const kinds = chartKinds(result);
  const tableButton = el('button', 'small', 'Table');
  tableButton.type = 'button';
  tableButton.setAttribute('aria-pressed', 'true');
  bar.append(tableButton);
  const chartSelect = el('select', 'small');
  chartSelect.setAttribute('aria-label', 'Chart');
  if (kinds.length > 0) {
    chartSelect.append(el('option', null, 'Chart…'));
    chartSelect.firstChild.value = '';
    for (const kind of kinds) {
      const option = el('option', null, kind);
      option.value = kind;
      chartSelect.append(option);
    }
    bar.append(chartSelect);
  }
  const csv = el('button', 'small', 'CSV');
  csv.type = 'button';
  csv.addEventListener('click', () => download(`${tool}-result.csv`, 'text/csv', toCsv(result)));
  const json = el('button', 'small', 'JSON');
  json.type = 'button';
  json.addEventListener('click', () => download(`${tool}-result.json`, 'application/json', JSON.stringify(result, null, 2)));
  bar.append(csv, json);
  const table = renderTable(result);
  const tableWrap = el('div', 'table-wrap');
  tableWrap.append(table);
  const chartBox = el('div', 'chart');
  chartBox.hidden = true;
  let chart = null;
  const showChart = (kind) => {
    if (!kind) return;
    tableWrap.hidden = true;
    chartBox.hidden = false;
    tableButton.setAttribute('aria-pressed', 'false');
    if (chart) chart.dispose();
    chart = renderChart(chartBox, result, kind, dark.matches);
    chartBox.dataset.kind = kind;
  };
  chartSelect.addEventListener('change', () => showChart(chartSelect.value));
  tableButton.addEventListener('click', () => {
    tableWrap.hidden = false;
    chartBox.hidden = true;
    tableButton.setAttribute('aria-pressed', 'true');
    chartSelect.value = '';
  });
  // Follows the box's width (a window resized, the phone turned).
  new ResizeObserver(() => chart?.resize()).observe(chartBox);
  box.append(bar, tableWrap, chartBox);
  const shown = () => {
    const kind = suggestedChart(result);
    if (kind) {
      chartSelect.value = kind;
      showChart(kind);
    }
  };
  return { box, shown };
}

// ---------- Asking ----------
/** How many times in a row a dropped answer stream is resumed before the page gives up. */
const RESUME_ATTEMPTS = 5;

async function ask(question) {
  notice('');
  const view = new RunView(question);
  const controller = new AbortController();
  state.running = { controller, view };
  setRunning(true);
  let ended = false;
  const body = { question };
  if (state.conversationId) body.conversation_id = state.conversationId;
  const chosen = [...document.querySelectorAll('#toolsets input:checked')].map((box) => box.value);
  if (chosen.length > 0) body.toolsets = chosen;
  try {
    let response = await api('/api/chat', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok) {
      view.finish(await errorText(response), true);
      ended = true;
      return;
    }
    const onEvent = (name, data, id) => {
      if (id) state.running.lastId = id;
      switch (name) {
        case 'conversation':
          state.conversationId = data.conversation_id;
          break;
        case 'thinking':
          view.think(data.delta || '');
          break;
        case 'tool_call':
          view.toolCall(data);
          break;
        case 'tool_result':
          view.toolResult(data);
          break;
        case 'content':
          view.content(data.delta || '');
          break;
        case 'done': {
          ended = true;
          const usage = data.usage || {};
          view.finish(`${data.iterations} model call${data.iterations === 1 ? '' : 's'}, ${(data.duration_ms / 1000).toFixed(1)} s, `
            + `${usage.input_tokens ?? 0} tokens in, ${usage.output_tokens ?? 0} out${data.stop_reason && data.stop_reason !== 'answer' ? ` (stopped: ${data.stop_reason})` : ''}`);
          break;
        }
        case 'error':
          ended = true;
          view.finish(`${data.message} (${data.code})`, true);
          break;
        default:
          break;
      }
    };
    // A connection that drops mid-run is resumed where it stopped (GET /api/chat/runs/{id}/events with
    // Last-Event-ID), on whichever replica answers; the run goes on meanwhile.
    for (let attempt = 0; ; attempt++) {
      try {
        await readEvents(response, onEvent);
      } catch (e) {
        if (e.name === 'AbortError') throw e;
      }
      const lastId = state.running.lastId;
      if (ended || !lastId || attempt >= RESUME_ATTEMPTS) break;
      notice('The connection dropped; resuming the answer…');
      await pause(Math.min(500 * 2 ** attempt, 4000), controller.signal);
      try {
        response = await api(`/api/chat/runs/${encodeURIComponent(lastId.slice(0, lastId.lastIndexOf(':')))}/events`, {
          headers: { Accept: 'text/event-stream', 'Last-Event-ID': lastId },
          signal: controller.signal,
        });
      } catch (e) {
        if (e.name === 'AbortError') throw e;
        continue;
      }
      if (!response.ok) {
        view.finish(await errorText(response), true);
        ended = true;
        break;
      }
      notice('');
    }
    if (!ended) {
      view.finish('The answer stream ended before the run finished; ask again to continue.', true);
      ended = true;
    }
  } catch (e) {
    if (!ended) {
      view.finish(e.name === 'AbortError' ? 'Stopped. The run and its statement were cancelled.' : `The connection failed: ${e.message}`, e.name !== 'AbortError');
    }
  } finally {
    state.running = null;
    setRunning(false);
    loadConversations();
    refreshStatus();
  }
}

function setRunning(running) {
  $('send').hidden = running;
  $('stop').hidden = !running;
  $('transcript').setAttribute('aria-busy', String(running));
  if (!running) $('question').focus();
}

function stop() {
  if (!state.running) return;
  const { controller, lastId } = state.running;
  controller.abort();
  // The run would go on for a while without its connection, for a resume: stop it on whichever replica runs it.
  if (lastId) api(`/api/chat/runs/${encodeURIComponent(lastId.slice(0, lastId.lastIndexOf(':')))}`, { method: 'DELETE' }).catch(() => {});
}

/** Resolves after ms milliseconds, or rejects with an AbortError when the signal aborts first. */
function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    }, { once: true });
  });
}

// ---------- Conversations ----------
async function loadConversations(more = false) {
  const path = more && state.nextPage ? `/api/conversations?limit=20&before=${encodeURIComponent(state.nextPage)}` : '/api/conversations?limit=20';
  const response = await api(path);
  if (!response.ok) return;
  const page = await response.json();
  const list = $('conversations');
  if (!more) list.replaceChildren();
  for (const item of page.items) {
    const li = el('li');
    const open = el('button', 'link', item.title || '(untitled)');
    open.type = 'button';
    open.dataset.id = item.id;
    if (item.id === state.conversationId) open.setAttribute('aria-current', 'true');
    open.addEventListener('click', () => openConversation(item.id));
    li.append(open, timeElement(item.updated_at));
    list.append(li);
  }
  state.nextPage = page.next;
  $('more-conversations').hidden = !page.next;
}

async function openConversation(id) {
  stop();
  const response = await api(`/api/conversations/${encodeURIComponent(id)}`);
  if (!response.ok) {
    notice(await errorText(response));
    return;
  }
  const conversation = await response.json();
  state.conversationId = conversation.conversation_id;
  $('transcript').replaceChildren();
  let view = null;
  const names = new Map();
  for (const message of conversation.messages) {
    if (message.role === 'user') {
      if (view) view.finish('');
      view = new RunView(message.content);
    } else if (message.role === 'assistant' && view) {
      for (const call of message.tool_calls || []) {
        let args = call.arguments;
        if (typeof args === 'string') {
          try { args = JSON.parse(args); } catch { /* shown as text */ }
        }
        names.set(call.id, call.name);
        view.toolCall({ id: call.id, name: call.name, arguments: args });
      }
      if (message.content) view.content(message.content);
    } else if (message.role === 'tool' && view) {
      let result;
      try { result = parseExact(message.content); } catch { result = message.content; }
      const ok = message.outcome === 'success';
      view.toolResult({ id: message.tool_call_id, name: message.tool_name || names.get(message.tool_call_id), ok,
        duration_ms: message.duration_ms ?? 0, outcome: message.outcome, result: ok ? result : undefined,
        error: ok ? undefined : (result && result.message) || message.content });
    }
  }
  if (view) view.finish('');
  document.querySelectorAll('#conversations button').forEach((b) => b.toggleAttribute('aria-current', b.dataset.id === id));
  $('question').focus();
}

function newConversation() {
  stop();
  state.conversationId = null;
  $('transcript').replaceChildren();
  document.querySelectorAll('#conversations [aria-current]').forEach((b) => b.removeAttribute('aria-current'));
  $('question').focus();
}

// ---------- What the service offers ----------
/**
 * The model that answers and the sources, in the header. The model is named as the server named itself in its last
 * answer when it did (a server may serve another model than the one asked for, or whatever name is asked), else as
 * asked for, with the server's host either way: a default name alone would say nothing true about who answers.
 */
function showStatus(info) {
  const status = $('status');
  let model = 'no model';
  let why = '';
  if (info.model && !info.model_server) {
    model = `model ${info.model}`;
  } else if (info.model && info.model_answered_as) {
    model = `model ${info.model_answered_as} at ${info.model_server}`;
    why = `The model server at ${info.model_server} named itself ${info.model_answered_as} in its last answer; `
      + `the service asks for ${info.model}.`;
  } else if (info.model) {
    model = `model ${info.model} at ${info.model_server}`;
    why = `The model the service asks the server at ${info.model_server} for; the name the server gives itself shows `
      + 'here once it has answered.';
  }
  status.textContent = `${model} · source ${info.sources.join(', ') || 'none'}`;
  status.title = why;
}

/** After a run: the server may have named itself. */
async function refreshStatus() {
  const response = await api('/api/info');
  if (response.ok) showStatus(await response.json());
}

async function loadInfo() {
  const response = await api('/api/info');
  if (!response.ok) {
    if (response.status !== 401) notice(await errorText(response));
    return false;
  }
  const info = await response.json();
  showStatus(info);
  if (!info.model) {
    notice(`No chat model is configured, so questions cannot be answered yet. ${info.model_hint}`);
  }
  const box = $('toolsets');
  box.querySelectorAll('label').forEach((label) => label.remove());
  for (const set of info.toolsets) {
    const label = el('label');
    const input = el('input');
    input.type = 'checkbox';
    input.value = set.name;
    label.append(input, ` ${set.title}`);
    label.title = set.description || set.tools.join(', ');
    box.append(label);
  }
  $('toolsets-menu').hidden = info.toolsets.length === 0;
  $('login-link').hidden = !info.auth.login_url;
  $('open-signin').hidden = info.auth.mode === 'none';
  return true;
}

async function showSignIn(why) {
  $('signin-why').textContent = why || '';
  if (!$('signin').open) $('signin').showModal();
  // Whether an OIDC login exists is public (RFC 9728, as the 401's resource_metadata says), so the
  // login link can be offered before anyone has signed in.
  try {
    const metadata = await (await fetch('/.well-known/oauth-protected-resource')).json();
    $('login-link').hidden = !(metadata.authorization_servers && metadata.authorization_servers.length > 0);
  } catch {
    // no metadata: offer the API key only
  }
}

// ---------- Knowledge ----------
async function searchKnowledge(event) {
  event?.preventDefault();
  const query = $('knowledge-query').value.trim() || 'sql';
  const results = $('knowledge-results');
  results.replaceChildren(el('p', 'working', 'Searching…'));
  const response = await api('/api/tools/search_knowledge', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, type: $('knowledge-kind').value, limit: 20 }),
  });
  if (!response.ok) {
    results.replaceChildren(el('p', 'error', await errorText(response)));
    return;
  }
  const found = (await response.json()).result;
  results.replaceChildren();
  if (found.total_found === 0) results.append(el('p', null, 'Nothing found.'));
  for (const pattern of found.query_patterns) {
    const item = el('details', 'knowledge pattern');
    item.append(el('summary', null, `Pattern: ${pattern.name} — ${pattern.question}`), el('p', null, pattern.summary || ''));
    if (pattern.sql) item.append(sqlBlock(pattern.sql));
    results.append(item);
  }
  for (const learning of found.learnings) {
    const item = el('details', 'knowledge learning');
    item.append(el('summary', null, `Learning: ${learning.title} (${learning.category})`), el('p', null, learning.description || ''));
    if (learning.sql) item.append(sqlBlock(learning.sql));
    results.append(item);
  }
  loadProposals();
}

/** Learning that waits for approval (GET /api/knowledge/proposals: every proposal for a reviewer, the caller's own otherwise). */
async function loadProposals() {
  const response = await api('/api/knowledge/proposals');
  const section = $('proposals');
  if (!response.ok) {
    section.hidden = true;
    return;
  }
  const list = $('proposal-list');
  list.replaceChildren();
  const body = await response.json();
  for (const item of body.items || []) {
    const li = el('li', null, `${item.kind}: ${item.title || item.name} `);
    // A caller who may not review sees only its own proposals, without the buttons it could not use.
    for (const verdict of body.can_review === false ? [] : ['approve', 'reject']) {
      const button = el('button', 'small', verdict);
      button.type = 'button';
      button.addEventListener('click', async () => {
        await api(`/api/knowledge/proposals/${encodeURIComponent(item.id)}/${verdict}`, { method: 'POST' });
        loadProposals();
      });
      li.append(button);
    }
    list.append(li);
  }
  section.hidden = list.children.length === 0;
}

// ---------- Wiring ----------
function wire() {
  // "2 minutes ago" grows older while the page stays open.
  setInterval(() => document.querySelectorAll('#conversations time').forEach((time) => {
    time.textContent = sinceNow(time.dateTime);
  }), 30000);
  $('ask').addEventListener('submit', (event) => {
    event.preventDefault();
    const question = $('question').value.trim();
    if (!question || state.running) return;
    $('question').value = '';
    ask(question);
  });
  $('question').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      $('ask').requestSubmit();
    }
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && state.running) {
      event.preventDefault();
      stop();
    }
  });
  $('stop').addEventListener('click', stop);
  $('new-conversation').addEventListener('click', newConversation);
  $('more-conversations').addEventListener('click', () => loadConversations(true));
  $('toggle-side').addEventListener('click', () => {
    const open = document.body.classList.toggle('side-open');
    $('toggle-side').setAttribute('aria-expanded', String(open));
  });
  $('open-knowledge').addEventListener('click', () => {
    $('knowledge').showModal();
    searchKnowledge();
  });
  $('knowledge-search').addEventListener('submit', searchKnowledge);
  $('open-signin').addEventListener('click', () => showSignIn(''));
  $('apikey-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    state.apiKey = $('apikey').value.trim() || null;
    if (state.apiKey) sessionStorage.setItem('sqlagent.key', state.apiKey);
    $('apikey').value = '';
    $('signin').close();
    if (await loadInfo()) loadConversations();
  });
  $('forget-key').addEventListener('click', () => {
    state.apiKey = null;
    sessionStorage.removeItem('sqlagent.key');
    $('signin').close();
  });
}

async function start() {
  wire();
  if (await loadInfo()) await loadConversations();
  document.body.dataset.ready = 'true';
  $('question').focus();
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', start);
} else {
  start();
}
