// The video library (issue 7): pick a camera and a day (a month calendar marks the days with footage),
// see the day's recorded spans and gaps on a timeline, play from any moment with the exact wall time of
// the frame on screen, step between segments, change speed, go back to live; select a range to export
// it as one MP4 or to protect it from retention. Routes: #library, #library/{cameraID}/{YYYY-MM-DD}.

import { api, exportURL, normalizeID } from './api.js';
import { dayKey, moveInMonth, parseDay, renderMonth } from './calendar.js';
import { libraryMarkup } from './library-markup.js';
import { icon } from './icons.js';
import { RecordingPlayer } from './playback.js';
import { Timeline, clockText } from './timeline.js';

const escapeHTML = (text) => String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** "1 h 2 min", "3 min 20 s", "12 s". */
export function durationText(ms) {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

/** "14:03:05" → ms on the local day starting at `dayStart`, or null. */
function timeOnDay(dayStart, text) {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(String(text).trim());
  if (!match) return null;
  const day = new Date(dayStart);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), Number(match[1]), Number(match[2]), Number(match[3] || 0)).getTime();
}

export class LibraryView {
  /** app: { cameras(), toast(message, tone), editCamera(id), recordingState(id) } */
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.active = false;
    this.cameraID = null;
    this.day = new Date();
    this.month = new Date(this.day.getFullYear(), this.day.getMonth(), 1);
    this.segments = [];
    this.protections = [];
    this.footageDays = new Set();
    this.selection = null;
    this.loadSerial = 0;
    this.refreshTimer = 0;

    root.innerHTML = libraryMarkup();

    this.$ = (selector) => root.querySelector(selector);
    // The calendar is open beside the player on a wide screen; on a phone it folds under the day's name.
    this.$('.lib-calendar-box').open = matchMedia('(min-width: 901px)').matches;
    this.select = this.$('#lib-camera');
    this.video = this.$('.lib-video');
    this.veil = this.$('.lib-veil');
    this.clock = this.$('.lib-clock');
    this.form = this.$('.lib-range');

    this.timeline = new Timeline(this.$('.lib-timeline'), {
      onSeek: (ms) => this.seek(ms),
      onSelect: (selection) => this.setSelection(selection, { fromTimeline: true }),
    });
    this.player = new RecordingPlayer(this.video, {
      onState: () => this.renderPlayer(),
      onTime: (wall) => this.showTime(wall),
      next: (segment) => this.segmentAfter(segment),
      segmentAt: (wall) => this.segmentAt(wall),
    });

    this.select.addEventListener('change', () => this.navigate(this.select.value, this.day));
    root.addEventListener('click', (event) => {
      const button = event.target.closest('[data-lib-action]');
      if (button) this.action(button.dataset.libAction, button);
    });
    this.$('.lib-speed').addEventListener('change', (event) => this.player.setRate(Number(event.target.value)));
    this.form.addEventListener('input', () => this.rangeFromFields());
    this.form.addEventListener('submit', (event) => event.preventDefault());
    this.$('.cal-grid').addEventListener('keydown', (event) => moveInMonth(this.$('.cal-grid'), event));
    document.addEventListener('keydown', (event) => this.onKey(event));
    document.addEventListener('visibilitychange', () => { if (document.hidden) this.player.pause(); });
  }

  // ----- routing -----

  /** Shows the library for `rest` of the hash ("{cameraID}/{YYYY-MM-DD}", both optional). */
  show(rest) {
    this.rest = rest || '';
    const [cameraPart, dayPart] = this.rest.split('/');
    const wasActive = this.active;
    this.active = true;
    this.root.hidden = false;
    const cameras = this.app.cameras();
    let cameraID = cameraPart ? normalizeID(cameraPart) : this.cameraID;
    if (!cameraID || !cameras.some((camera) => camera.id === cameraID)) {
      let remembered = null;
      try { remembered = localStorage.getItem('watchbox.library.camera'); } catch {}
      cameraID = cameras.find((camera) => camera.id === remembered)?.id ?? cameras[0]?.id ?? null;
    }
    const day = parseDay(dayPart) ?? this.day;
    this.renderCameras();
    const changed = cameraID !== this.cameraID || dayKey(day) !== dayKey(this.day) || !wasActive;
    this.cameraID = cameraID;
    this.day = day;
    if (changed) {
      this.month = new Date(day.getFullYear(), day.getMonth(), 1);
      if (cameraID) {
        try { localStorage.setItem('watchbox.library.camera', cameraID); } catch {}
      }
      this.load();
    }
    clearInterval(this.refreshTimer);
    this.refreshTimer = setInterval(() => this.refreshToday(), 10000);
  }

  hide() {
    if (!this.active) return;
    this.active = false;
    this.root.hidden = true;
    this.player.stop();
    clearInterval(this.refreshTimer);
  }

  /** Goes to a camera and day through the address (so Back works and the link can be shared). */
  navigate(cameraID, day) {
    const hash = `#library/${cameraID}/${dayKey(day)}`;
    if (location.hash !== hash) location.hash = hash;
  }

  /** The camera list changed. */
  setCameras() {
    if (!this.active) return;
    this.renderCameras();
    if (!this.cameraID && this.app.cameras().length) this.show(this.rest);
  }

  get dayStart() {
    return new Date(this.day.getFullYear(), this.day.getMonth(), this.day.getDate()).getTime();
  }

  get dayEnd() {
    return new Date(this.day.getFullYear(), this.day.getMonth(), this.day.getDate() + 1).getTime();
  }

  get camera() {
    return this.app.cameras().find((camera) => camera.id === this.cameraID) ?? null;
  }

  // ----- data -----

  async load() {
    const serial = ++this.loadSerial;
    this.player.stop();
    this.segments = [];
    this.protections = [];
    this.setSelection(null);
    this.timeline.setDay(this.dayStart, this.dayEnd);
    this.timeline.setSegments([]);
    this.timeline.setProtections([]);
    this.timeline.setPlayhead(null);
    this.clock.hidden = true;
    this.loadError = null;
    this.loading = true;
    this.renderHeader();
    this.renderCalendar();
    this.renderPlayer();
    if (!this.cameraID) {
      this.loading = false;
      this.renderPlayer();
      return;
    }
    await Promise.all([this.loadDay(serial, { fit: true }), this.loadMonth()]);
  }

  async loadDay(serial = this.loadSerial, { fit = false } = {}) {
    const cameraID = this.cameraID;
    try {
      const [segments, protections] = await Promise.all([
        api.segments(cameraID, this.dayStart, this.dayEnd),
        api.protections(cameraID),
      ]);
      if (serial !== this.loadSerial) return;
      this.segments = segments;
      this.protections = protections.filter((item) => item.toMs > this.dayStart && item.fromMs < this.dayEnd);
      this.loadError = null;
    } catch (error) {
      if (serial !== this.loadSerial) return;
      this.loadError = error.message;
    }
    this.loading = false;
    this.timeline.setSegments(this.segments);
    this.timeline.setProtections(this.protections);
    // A short day of footage is zoomed to, so that it can be seen and clicked.
    if (fit && this.segments.length) {
      const first = Math.max(this.dayStart, this.segments[0].startMs);
      const last = Math.min(this.dayEnd, this.segments[this.segments.length - 1].endMs);
      if (last - first < 6 * 3600e3) this.timeline.show(first, last);
    }
    this.renderProtections();
    this.renderPlayer();
    this.root.dataset.loaded = `${cameraID}/${dayKey(this.day)}/${this.segments.length}`;
  }

  async loadMonth() {
    const cameraID = this.cameraID;
    const first = new Date(this.month.getFullYear(), this.month.getMonth(), 1);
    const last = new Date(this.month.getFullYear(), this.month.getMonth() + 1, 0);
    try {
      const days = await api.footageDays(cameraID, dayKey(first), dayKey(last),
        -new Date(first.getFullYear(), first.getMonth(), 15).getTimezoneOffset());
      if (cameraID !== this.cameraID) return;
      this.footageDays = new Set(days);
    } catch {
      this.footageDays = new Set();
    }
    this.renderCalendar();
  }

  /** Today's footage grows while it is watched: load the index again every few seconds. */
  refreshToday() {
    if (!this.active || document.hidden || !this.cameraID) return;
    if (Date.now() >= this.dayEnd || Date.now() < this.dayStart) return;
    this.loadDay();
    if (!this.footageDays.has(dayKey(this.day))) this.loadMonth();
  }

  segmentAt(ms) {
    return this.segments.find((segment) => ms >= segment.startMs && ms < segment.endMs) ?? null;
  }

  /** The segment that plays after `segment`: the next in the day's list, or asked from the server. */
  async segmentAfter(segment) {
    const index = this.segments.findIndex((item) => item.id === segment.id);
    if (index >= 0 && index + 1 < this.segments.length) return this.segments[index + 1];
    const more = await api.segments(this.cameraID, segment.endMs - 500, segment.endMs + 6 * 3600e3);
    const next = more.find((item) => item.id !== segment.id && item.startMs >= segment.startMs);
    if (next && next.startMs < this.dayEnd && !this.segments.some((item) => item.id === next.id)) {
      this.segments.push(next);
      this.timeline.setSegments(this.segments);
    }
    return next ?? null;
  }

  // ----- playback -----

  /** Plays from `ms`, or from the next footage after it. */
  seek(ms) {
    this.timeline.cursor = ms;
    let segment = this.segmentAt(ms);
    let from = ms;
    if (!segment) {
      segment = this.segments.find((item) => item.startMs >= ms) ?? null;
      if (!segment) {
        this.notice = this.segments.length
          ? `No footage after ${clockText(ms)} on this day. Pick a coloured span on the timeline.`
          : null;
        this.renderPlayer();
        return;
      }
      from = segment.startMs;
    }
    this.notice = null;
    this.pendingSeek = from;
    this.seekTarget = from;
    this.timeline.setPlayhead(from);
    this.player.playFrom(segment, from);
    this.renderPlayer();
  }

  showTime(wall) {
    // The first frame shown after a seek: where playback really started (tests read it too).
    if (this.pendingSeek !== null && this.pendingSeek !== undefined) this.lastSeek = { target: this.seekTarget, firstWall: wall };
    this.pendingSeek = null;
    this.timeline.setPlayhead(wall);
    this.clock.hidden = false;
    this.clock.dataset.wallMs = String(Math.round(wall));
    this.$('.lib-clock-time').textContent = clockText(wall);
    const date = new Date(wall);
    this.$('.lib-clock-date').textContent = date.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
  }

  action(name, button) {
    const wall = this.player.wallTime ?? this.pendingSeek ?? null;
    switch (name) {
      case 'toggle':
        if (this.player.state === 'idle' || this.player.state === 'failed' || this.player.state === 'ended') {
          this.seek(this.timeline.cursor ?? this.segments[0]?.startMs ?? this.dayStart);
        } else if (this.player.state === 'paused') this.player.resume();
        else this.player.pause();
        break;
      case 'previous': {
        if (!this.segments.length) break;
        const current = wall !== null ? this.segmentAt(wall) : null;
        const index = current ? this.segments.indexOf(current) : this.segments.length;
        const target = current && wall - current.startMs > 2000 ? current : this.segments[Math.max(0, index - 1)];
        this.seek(target.startMs);
        break;
      }
      case 'next': {
        if (!this.segments.length) break;
        const next = this.segments.find((segment) => segment.startMs > (wall ?? this.dayStart) + 1);
        if (next) this.seek(next.startMs);
        else this.app.toast('This is the last segment of the day.');
        break;
      }
      case 'zoom-in':
        this.timeline.zoom(2, this.timeline.playhead ?? undefined);
        break;
      case 'zoom-out':
        this.timeline.zoom(0.5, this.timeline.playhead ?? undefined);
        break;
      case 'live':
        if (this.cameraID) location.hash = `#camera/${this.cameraID}`;
        break;
      case 'export':
        this.exportRange();
        break;
      case 'protect':
        this.protectRange(button);
        break;
      case 'clear':
        this.setSelection(null);
        break;
      case 'unprotect':
        this.unprotect(button);
        break;
      case 'prev-month':
        this.month = new Date(this.month.getFullYear(), this.month.getMonth() - 1, 1);
        this.renderCalendar();
        this.loadMonth();
        break;
      case 'next-month':
        this.month = new Date(this.month.getFullYear(), this.month.getMonth() + 1, 1);
        this.renderCalendar();
        this.loadMonth();
        break;
      case 'day':
        this.navigate(this.cameraID, parseDay(button.dataset.day));
        if (!matchMedia('(min-width: 901px)').matches) this.$('.lib-calendar-box').open = false;
        break;
      case 'settings':
        if (this.cameraID) this.app.editCamera(this.cameraID);
        break;
      default:
        break;
    }
  }

  onKey(event) {
    if (!this.active || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if ([...document.querySelectorAll('dialog')].some((dialog) => dialog.open)) return;
    const target = event.target;
    if (target.closest?.('input, select, textarea, button, a, summary, .timeline')) return;
    if (event.key === ' ' || event.key === 'k') this.action('toggle');
    else return;
    event.preventDefault();
  }

  // ----- range -----

  setSelection(selection, { fromTimeline = false } = {}) {
    this.selection = selection;
    if (!fromTimeline) this.timeline.setSelection(selection);
    const fields = this.form.elements;
    if (document.activeElement !== fields.from) fields.from.value = selection ? clockText(selection.fromMs) : '';
    if (document.activeElement !== fields.to) fields.to.value = selection ? clockText(selection.toMs) : '';
    this.renderRange();
  }

  rangeFromFields() {
    const fields = this.form.elements;
    const from = timeOnDay(this.dayStart, fields.from.value);
    let to = timeOnDay(this.dayStart, fields.to.value);
    if (from === null || to === null) return;
    if (to <= from && fields.to.value === '00:00:00') to = this.dayEnd;
    this.selection = to > from ? { fromMs: from, toMs: to } : { fromMs: from, toMs: from };
    this.timeline.setSelection(to > from ? this.selection : null);
    this.renderRange();
  }

  /** How much footage lies in the selection. */
  footageIn(selection) {
    let total = 0;
    for (const segment of this.segments) {
      total += Math.max(0, Math.min(segment.endMs, selection.toMs) - Math.max(segment.startMs, selection.fromMs));
    }
    return total;
  }

  rangeProblem() {
    const selection = this.selection;
    if (!selection) return 'Select a range first: drag on the timeline, or type the start and end times.';
    if (selection.toMs <= selection.fromMs) return 'The end time must be after the start time.';
    if (selection.toMs - selection.fromMs > 24 * 3600e3) return 'A range can be at most 24 hours long.';
    return null;
  }

  renderRange() {
    const selection = this.selection;
    const length = this.$('.lib-range-length');
    const error = this.$('.lib-range-error');
    error.hidden = true;
    this.form.classList.toggle('has-selection', Boolean(selection));
    if (!selection || selection.toMs <= selection.fromMs) {
      length.textContent = selection ? '' : 'No range selected';
      return;
    }
    const footage = this.footageIn(selection);
    length.textContent = `${durationText(selection.toMs - selection.fromMs)} · ${footage ? `${durationText(footage)} of footage` : 'no footage'}`;
  }

  showRangeError(message) {
    const error = this.$('.lib-range-error');
    error.textContent = message;
    error.hidden = false;
  }

  exportRange() {
    const problem = this.rangeProblem();
    if (problem) return this.showRangeError(problem);
    const { fromMs, toMs } = this.selection;
    if (!this.footageIn(this.selection)) {
      return this.showRangeError(`No footage between ${clockText(fromMs)} and ${clockText(toMs)}: select part of a coloured span.`);
    }
    // A link download: the browser streams the file to disk (an export can be large) and names it from
    // the server's Content-Disposition.
    const link = document.createElement('a');
    link.href = exportURL(this.cameraID, fromMs, toMs);
    link.download = '';
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    this.app.toast(`Exporting ${clockText(fromMs)}–${clockText(toMs)} (${durationText(this.footageIn(this.selection))} of footage)…`, 'good');
  }

  async protectRange(button) {
    const problem = this.rangeProblem();
    if (problem) return this.showRangeError(problem);
    const { fromMs, toMs } = this.selection;
    button.disabled = true;
    try {
      await api.protect(this.cameraID, fromMs, toMs);
      this.app.toast(`Protected ${clockText(fromMs)}–${clockText(toMs)}: retention will keep it.`, 'good');
      await this.loadDay();
    } catch (error) {
      this.showRangeError(error.message);
    } finally {
      button.disabled = false;
    }
  }

  async unprotect(button) {
    button.disabled = true;
    try {
      await api.unprotect(button.dataset.id);
      this.app.toast('No longer protected: retention may delete it when it is old enough.');
      await this.loadDay();
    } catch (error) {
      this.app.toast(error.message, 'bad');
      button.disabled = false;
    }
  }

  // ----- rendering -----

  renderCameras() {
    const cameras = this.app.cameras();
    const signature = cameras.map((camera) => `${camera.id}:${camera.name}`).join('|');
    if (this.select.dataset.signature !== signature) {
      this.select.dataset.signature = signature;
      this.select.innerHTML = cameras.map((camera) => `<option value="${camera.id}">${escapeHTML(camera.name)}</option>`).join('');
    }
    this.select.disabled = !cameras.length;
    if (this.cameraID) this.select.value = this.cameraID;
  }

  renderHeader() {
    const label = this.day.toLocaleDateString([], { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    this.$('.lib-day-label').textContent = label;
  }

  renderCalendar() {
    renderMonth(this.$('.cal-grid'), this.$('.cal-title'), { month: this.month, selected: this.day, footageDays: this.footageDays });
  }

  renderProtections() {
    const section = this.$('.lib-protections');
    const list = this.$('.lib-protection-list');
    section.hidden = !this.protections.length;
    list.innerHTML = this.protections.map((item) => `
      <li class="lib-protection">${icon('shield')}
        <span class="lib-protection-range">${clockText(item.fromMs)} – ${clockText(item.toMs)}</span>
        <span class="lib-protection-note">${escapeHTML(item.note || '')}</span>
        <button type="button" class="btn btn-secondary btn-small" data-lib-action="unprotect" data-id="${escapeHTML(item.id)}">Unprotect</button>
      </li>`).join('');
  }

  renderPlayer() {
    const state = this.player.state;
    this.root.dataset.player = state;
    const playing = state === 'playing' || state === 'waiting' || state === 'loading';
    const toggle = this.$('.lib-play');
    toggle.classList.toggle('is-playing', playing);
    toggle.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    const has = this.segments.length > 0;
    for (const name of ['previous', 'next']) this.$(`[data-lib-action="${name}"]`).disabled = !has;
    this.$('.lib-live').disabled = !this.cameraID;

    let title = '';
    let detail = '';
    let spinner = false;
    let action = '';
    if (!this.cameraID) {
      title = 'No camera yet';
      detail = 'Add a camera, turn recording on in its settings, and its footage appears here.';
    } else if (this.loadError) {
      title = 'Couldn’t load the recordings';
      detail = this.loadError;
    } else if (state === 'failed') {
      title = 'Can’t play this footage';
      detail = this.player.error;
    } else if (state === 'loading' || (state === 'waiting' && this.player.wallTime === null)) {
      spinner = true;
    } else if (state === 'waiting') {
      spinner = true;
    } else if (state === 'ended') {
      title = 'End of the footage';
      detail = 'Nothing was recorded after this yet. Pick another moment, or go Live.';
    } else if (this.notice) {
      title = 'No footage there';
      detail = this.notice;
    } else if (state === 'idle' && this.loading) {
      spinner = true;
    } else if (state === 'idle' && !has) {
      const recording = this.app.recordingState?.(this.cameraID);
      title = 'Nothing recorded on this day';
      if (!recording || recording.mode === 'off') {
        detail = 'Recording is off for this camera. Turn it on in the camera’s settings, under Recording.';
        action = '<button type="button" class="btn btn-glass btn-small" data-lib-action="settings">Recording settings</button>';
      } else {
        detail = 'Pick a marked day in the calendar.';
      }
    } else if (state === 'idle') {
      title = 'Pick a moment';
      detail = 'Click or tap the timeline to play from there.';
    }
    this.veil.dataset.veil = title || spinner ? 'on' : 'none';
    this.veil.innerHTML = title || spinner
      ? `<div class="veil-body">${spinner ? '<span class="spinner" aria-hidden="true"></span>' : ''}` +
        `${title ? `<p class="veil-title">${escapeHTML(title)}</p>` : ''}${detail ? `<p class="veil-detail">${escapeHTML(detail)}</p>` : ''}${action}</div>`
      : '';
  }
}
