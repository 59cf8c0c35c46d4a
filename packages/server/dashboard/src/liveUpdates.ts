/**
 * Live updates: the service's server-sent events (`api/dashboard/live`), read with `fetch` so the
 * API key goes in a header (EventSource cannot send one). When the stream cannot be opened or
 * ends, the page polls every 10 s and tries the stream again every 30 s.
 */
import { authHeaders } from './api.js';
import { byId } from './dom.js';

export interface Change {
  customer_ids: string[];
  truncated: boolean;
}

const POLL_MS = 10_000;
const RETRY_MS = 30_000;

function setStatus(mode: 'live' | 'polling' | 'connecting', text: string): void {
  const el = byId('live-status');
  el.dataset['mode'] = mode;
  el.textContent = text;
}

/** Parses SSE text into events; returns the unparsed rest. */
function parseEvents(buffer: string, onEvent: (type: string, data: string) => void): string {
  let at: number;
  while ((at = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, at);
    buffer = buffer.slice(at + 2);
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
    }
    if (data.length > 0) onEvent(type, data.join('\n'));
  }
  return buffer;
}

/** Starts live updates; `onChange` runs for every change (and on every poll, with no ids). */
export function startLiveUpdates(onChange: (change: Change) => void): void {
  let poll: number | undefined;
  const startPolling = () => {
    setStatus('polling', `Polling every ${POLL_MS / 1000} s`);
    poll ??= window.setInterval(() => onChange({ customer_ids: [], truncated: true }), POLL_MS);
    window.setTimeout(connect, RETRY_MS);
  };
  async function connect(): Promise<void> {
    setStatus('connecting', 'Connecting…');
    try {
      const res = await fetch('api/dashboard/live', { headers: authHeaders({ accept: 'text/event-stream' }) });
      if (!res.ok || res.body === null) return startPolling();
      window.clearInterval(poll);
      poll = undefined;
      setStatus('live', 'Live');
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer = parseEvents(buffer + value, (type, data) => {
          if (type === 'change') onChange(JSON.parse(data) as Change);
        });
      }
    } catch {
      // the stream failed: fall back below
    }
    startPolling();
  }
  void connect();
}
