// The WatchBox HTTP API (v1) as the web app uses it: JSON over fetch, server-sent events, and the
// live WebSocket's address. Every failure becomes an APIError whose message a person can act on.

/** A failed API call: `status` 0 means the server could not be reached; `field` names the form
 *  field the server's 400 answer blames, when it names one. */
export class APIError extends Error {
  constructor(message, { status = 0, field = null } = {}) {
    super(message);
    this.name = 'APIError';
    this.status = status;
    this.field = field;
  }
}

const unreachable = "Can't reach WatchBox. Check that the server is running and that this device can reach it.";

/** One JSON request: the answer's body, or an APIError. */
export async function call(method, path, body) {
  const init = { method, cache: 'no-store', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new APIError(unreachable);
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data?.error || `WatchBox answered ${response.status} ${response.statusText}`.trim();
    throw new APIError(message, { status: response.status, field: data?.field ?? null });
  }
  return data;
}

/** Ids are UUIDs that Swift prints upper-case; the app keeps them upper-case so that they compare. */
export const normalizeID = (id) => String(id).toUpperCase();

function normalizeCamera(camera) {
  return { ...camera, id: normalizeID(camera.id), profiles: camera.profiles ?? [] };
}

const cameraPath = (id) => `/api/cameras/${encodeURIComponent(id)}`;

export const api = {
  /** GET /api/cameras: every camera in grid order. */
  async cameras() {
    return (await call('GET', '/api/cameras')).map(normalizeCamera);
  },
  /** POST /api/cameras → the new camera. */
  async addCamera(fields) {
    return normalizeCamera(await call('POST', '/api/cameras', fields));
  },
  /** PATCH /api/cameras/{id} with any subset of the fields. */
  async updateCamera(id, fields) {
    return normalizeCamera(await call('PATCH', cameraPath(id), fields));
  },
  /** DELETE /api/cameras/{id}. */
  deleteCamera(id) {
    return call('DELETE', cameraPath(id));
  },
  /** PUT /api/cameras/order: the new grid order. */
  reorder(ids) {
    return call('PUT', '/api/cameras/order', { ids });
  },
  /** POST /api/test-connection: probes an address before it is saved. */
  testConnection(fields) {
    return call('POST', '/api/test-connection', fields);
  },
  /** POST /api/cameras/{id}/test: probes a saved camera (with its saved password). */
  testCamera(id) {
    return call('POST', `${cameraPath(id)}/test`);
  },
  /** POST /api/demo → the demo camera. */
  async addDemo() {
    return normalizeCamera(await call('POST', '/api/demo'));
  },

  // ----- recording and the library (issue 7; /work/contracts/RECORDING-API.md) -----

  /** GET /api/cameras/{id}/recording → {mode, schedule, retentionDays, state}. */
  recording(id) {
    return call('GET', `${cameraPath(id)}/recording`);
  },
  /** PUT /api/cameras/{id}/recording with {mode, schedule, retentionDays}. */
  setRecording(id, settings) {
    return call('PUT', `${cameraPath(id)}/recording`, settings);
  },
  /** POST …/recording/start: a manual recording, for `durationSeconds` or until stopped (null). */
  startRecording(id, durationSeconds = null) {
    return call('POST', `${cameraPath(id)}/recording/start`, durationSeconds ? { durationSeconds } : {});
  },
  /** POST …/recording/stop: ends a manual recording. */
  stopRecording(id) {
    return call('POST', `${cameraPath(id)}/recording/stop`);
  },
  /** GET …/recordings?from&to → the segments overlapping [from, to), by start (times in ms). */
  async segments(id, fromMs, toMs) {
    const query = `from=${iso(fromMs)}&to=${iso(toMs)}`;
    const data = await call('GET', `${cameraPath(id)}/recordings?${query}`);
    return (data?.segments ?? []).map((segment) => ({ ...segment,
      startMs: Date.parse(segment.start), endMs: Date.parse(segment.end) }));
  },
  /** GET …/recordings/days → the days (YYYY-MM-DD, in this browser's UTC offset) with footage. */
  async footageDays(id, from, to, utcOffsetMinutes = -new Date().getTimezoneOffset()) {
    const data = await call('GET', `${cameraPath(id)}/recordings/days?utcOffsetMinutes=${utcOffsetMinutes}&from=${from}&to=${to}`);
    return data?.days ?? [];
  },
  /** GET …/protections → [{id, from, to, note}] (times also in ms). */
  async protections(id) {
    const data = await call('GET', `${cameraPath(id)}/protections`);
    return (data?.protections ?? []).map((item) => ({ ...item, fromMs: Date.parse(item.from), toMs: Date.parse(item.to) }));
  },
  /** POST …/protections: keeps [from, to) from retention. */
  protect(id, fromMs, toMs, note) {
    return call('POST', `${cameraPath(id)}/protections`, { from: iso(fromMs), to: iso(toMs), ...(note ? { note } : {}) });
  },
  /** DELETE /api/protections/{id}. */
  unprotect(protectionID) {
    return call('DELETE', `/api/protections/${encodeURIComponent(protectionID)}`);
  },
  /** GET /api/storage. */
  storage() {
    return call('GET', '/api/storage');
  },
  /** PUT /api/settings/storage with {maxBytes, minFreeBytes}. */
  setStorage(settings) {
    return call('PUT', '/api/settings/storage', settings);
  },
};

/** A time in ms as the API writes it: ISO 8601 UTC with milliseconds. */
export const iso = (ms) => new Date(ms).toISOString();

/** GET /api/recordings/{id}/media[?from]: the segment's fMP4 from the keyframe at or before `fromMs`. */
export function mediaURL(segmentID, fromMs = null) {
  return `/api/recordings/${encodeURIComponent(segmentID)}/media${fromMs === null ? '' : `?from=${iso(fromMs)}`}`;
}

/** GET /api/cameras/{id}/export.mp4?from&to: one MP4 download of the footage in the range. */
export function exportURL(id, fromMs, toMs) {
  return `${cameraPath(id)}/export.mp4?from=${iso(fromMs)}&to=${iso(toMs)}`;
}

/** ws:// or wss:// address of a camera's live stream (`stream` "main" or "sub"; null lets the
 *  server choose: the sub-stream when there is one). */
export function liveURL(id, stream = null) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = stream ? `?stream=${stream}` : '';
  return `${scheme}//${location.host}${cameraPath(id)}/live${query}`;
}

/**
 * GET /api/events as callbacks. EventSource reconnects by itself after a dropped connection; when
 * the browser gives up (the server answered with an error), this starts a new one with backoff.
 * handlers: onSnapshot(cameras), onStatus(id, status), onCameras(), onPlans(change), onRecording(id, state),
 * onConnection(connected).
 */
export class EventFeed {
  constructor(handlers) {
    this.handlers = handlers;
    this.source = null;
    this.retries = 0;
    this.timer = 0;
  }

  start() {
    clearTimeout(this.timer);
    if (this.source) this.source.close();
    const source = new EventSource('/api/events');
    this.source = source;
    const parse = (event) => {
      try {
        return JSON.parse(event.data);
      } catch {
        return null;
      }
    };
    source.addEventListener('open', () => {
      this.retries = 0;
      this.handlers.onConnection?.(true);
    });
    source.addEventListener('snapshot', (event) => {
      const data = parse(event);
      if (data?.cameras) {
        this.handlers.onSnapshot?.(data.cameras.map((entry) => ({ id: normalizeID(entry.id), status: entry.status })));
      }
    });
    source.addEventListener('status', (event) => {
      const data = parse(event);
      if (data?.id && data.status) this.handlers.onStatus?.(normalizeID(data.id), data.status);
    });
    source.addEventListener('cameras', () => this.handlers.onCameras?.());
    source.addEventListener('plans', (event) => {
      const data = parse(event);
      if (data) this.handlers.onPlans?.(data);
    });
    source.addEventListener('recording', (event) => {
      const data = parse(event);
      if (data?.cameraID && data.state) this.handlers.onRecording?.(normalizeID(data.cameraID), data.state);
    });
    source.addEventListener('error', () => {
      this.handlers.onConnection?.(false);
      if (source.readyState === EventSource.CLOSED && this.source === source) {
        const delay = Math.min(15000, 1000 * 2 ** this.retries++);
        this.timer = setTimeout(() => this.start(), delay);
      }
    });
  }

  stop() {
    clearTimeout(this.timer);
    this.source?.close();
    this.source = null;
  }
}
