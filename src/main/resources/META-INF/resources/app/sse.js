// Reads a text/event-stream answer from fetch(): the chat is a POST, which EventSource cannot send.
// Follows the SSE format (https://html.spec.whatwg.org/multipage/server-sent-events.html):
// events end at a blank line, `event:` names them, `data:` lines join with newlines, `id:` sets the last event id
// (kept until another `id:` changes it), `:` lines are comments.

/**
 * JSON.parse that keeps numbers exactly as the service wrote them: 1.50 stays 1.50 and a 20-digit
 * integer keeps its digits (JavaScript numbers would give 1.5 and a rounded value). Such numbers
 * become JSON.rawJSON values, which JSON.stringify writes back verbatim; see results.js for reading them.
 */
export function parseExact(text) {
  if (typeof JSON.rawJSON !== 'function') {
    return JSON.parse(text);
  }
  return JSON.parse(text, (key, value, context) =>
    typeof value === 'number' && context && context.source !== String(value) ? JSON.rawJSON(context.source) : value);
}

/**
 * Calls onEvent(name, data, id) for every event of the response body, id being the last event id so far
 * (what a reconnect sends as Last-Event-ID); resolves when the stream ends.
 */
export async function readEvents(response, onEvent) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let name = 'message';
  let data = [];
  let lastEventId = '';
  const dispatch = () => {
    if (data.length > 0) {
      const text = data.join('\n');
      let parsed;
      try {
        parsed = parseExact(text);
      } catch {
        parsed = { text };
      }
      onEvent(name, parsed, lastEventId);
    }
    name = 'message';
    data = [];
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      break;
    }
    buffer += value;
    let end;
    while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        dispatch();
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let rest = colon < 0 ? '' : line.slice(colon + 1);
        if (rest.startsWith(' ')) {
          rest = rest.slice(1);
        }
        if (field === 'event') {
          name = rest;
        } else if (field === 'data') {
          data.push(rest);
        } else if (field === 'id' && !rest.includes('\0')) {
          lastEventId = rest;
        }
      }
    }
  }
  dispatch();
}
