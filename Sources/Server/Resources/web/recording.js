// Recording controls (issue 7): the Recording section of the camera dialog (mode, weekly windows,
// retention), the Record button of the full-screen view (with an optional duration), and the REC /
// "Disk full" badges on the grid's cells, kept current by the `recording` server-sent event.

import { api, APIError } from './api.js';
import { icon } from './icons.js';
import { openMenu } from './dialogs.js';

const dayNames = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const modeHints = {
  off: 'Nothing is recorded. The Record button in full screen still records on demand.',
  continuous: 'Records all the time (the camera’s stream keeps running for it).',
  scheduled: 'Records during the time windows below, every week.',
  manual: 'Records only when you press Record in full screen (or through the API).',
};
const modeNames = { off: 'Off', continuous: 'Always', scheduled: 'On a schedule', manual: 'Manual' };

/** What a recording state says, in words: {label, tone, text}. */
export function describeRecording(state) {
  switch (state?.state) {
    case 'recording':
      return { label: 'REC', tone: 'rec', text: state.manualUntil
        ? `Recording until ${new Date(state.manualUntil).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`
        : 'Recording now' };
    case 'waiting':
      return { label: 'No picture', tone: 'warn', text: state.message || 'Should be recording, but the camera sends no picture.' };
    case 'diskFull':
      return { label: 'Disk full', tone: 'bad', text: state.message || 'Disk full: recordings stopped. Free space or lower the retention on the Storage page.' };
    case 'error':
      return { label: 'Rec error', tone: 'bad', text: state.message || 'Recording failed.' };
    case 'idle':
      return { label: '', tone: 'idle', text: 'Not recording right now.' };
    default:
      return { label: '', tone: 'off', text: 'Recording is off.' };
  }
}

export class RecordingControls {
  /**
   * dialog: the camera <dialog>; grid: the Grid; viewer: the Viewer.
   * app: { toast(message, tone), cameras() }
   */
  constructor({ dialog, grid, viewer, app }) {
    this.dialog = dialog;
    this.form = dialog.querySelector('form');
    this.section = dialog.querySelector('.recording-settings');
    this.grid = grid;
    this.viewer = viewer;
    this.app = app;
    this.states = new Map(); // camera id → {mode, state}
    this.loaded = null; // the config shown in the dialog
    this.busy = false;

    this.section.addEventListener('change', (event) => {
      if (event.target.name === 'mode') this.renderMode();
    });
    this.section.addEventListener('click', (event) => {
      const button = event.target.closest('[data-recording-action]');
      if (!button) return;
      if (button.dataset.recordingAction === 'add-window') {
        this.addWindow({ days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' });
        this.clearError('schedule');
      } else if (button.dataset.recordingAction === 'remove-window') {
        button.closest('.schedule-window').remove();
        this.clearError('schedule');
      }
    });
    this.section.addEventListener('input', () => this.clearError('schedule'));
    // New cells get their badge.
    new MutationObserver(() => this.renderBadges()).observe(grid.root, { childList: true });
  }

  // ----- states -----

  /** Loads every camera's recording state (at start and after the camera list changes). */
  async refresh(cameras) {
    await Promise.all(cameras.map(async (camera) => {
      try {
        const config = await api.recording(camera.id);
        this.states.set(camera.id, { mode: config.mode, state: config.state });
      } catch {
        // An older server without recording: no badges.
      }
    }));
    this.renderBadges();
    this.renderViewer();
  }

  /** The `recording` event. */
  setState(id, state) {
    const entry = this.states.get(id) ?? { mode: null };
    entry.state = state;
    this.states.set(id, entry);
    this.renderBadges();
    this.renderViewer();
    if (this.loaded && this.dialogCameraID === id) this.renderState(state);
  }

  get(id) {
    return this.states.get(id) ?? null;
  }

  renderBadges() {
    for (const cellEl of this.grid.root.querySelectorAll('.cell')) {
      const id = cellEl.dataset.cameraId;
      const entry = this.states.get(id);
      const view = describeRecording(entry?.state);
      let badge = cellEl.querySelector('.rec-badge');
      // A recording that stopped for a reason says so in words across the cell's foot, with where to act.
      let alert = cellEl.querySelector('.rec-alert');
      if (view.tone === 'bad') {
        if (!alert) {
          alert = document.createElement('a');
          alert.className = 'rec-alert';
          alert.addEventListener('click', (event) => event.stopPropagation());
          cellEl.append(alert);
        }
        const diskFull = entry.state.state === 'diskFull';
        alert.href = diskFull ? '#storage' : `#library/${id}`;
        alert.innerHTML = `${icon('alert')}<span></span>`;
        alert.querySelector('span').textContent = diskFull
          ? 'Disk full: recording stopped. Free space or lower the retention (Storage).'
          : `Recording stopped: ${view.text}`;
        alert.title = view.text;
      } else {
        alert?.remove();
      }
      if (!view.label) {
        badge?.remove();
        delete cellEl.dataset.recording;
        continue;
      }
      if (!badge) {
        badge = document.createElement('span');
        badge.className = 'rec-badge';
        const head = cellEl.querySelector('.cell-head');
        head.insertBefore(badge, head.querySelector('.cell-tools'));
      }
      badge.textContent = view.label;
      badge.dataset.tone = view.tone;
      badge.title = view.text;
      badge.setAttribute('role', 'status');
      badge.setAttribute('aria-label', view.text);
      cellEl.dataset.recording = entry.state.state;
    }
  }

  // ----- the full-screen view's Record button -----

  renderViewer() {
    const root = this.viewer.root;
    const id = this.viewer.camera?.id;
    const button = root.querySelector('.rec-button');
    const badge = root.querySelector('.viewer-rec');
    if (!id || !button) return;
    const entry = this.states.get(id);
    const state = entry?.state?.state;
    const recording = state === 'recording';
    const manual = Boolean(entry?.state?.manualUntil) || (recording && entry?.mode !== 'continuous' && entry?.mode !== 'scheduled');
    button.setAttribute('aria-pressed', String(recording && manual));
    button.classList.toggle('is-recording', recording && manual);
    button.classList.toggle('is-capturing', recording);
    const label = recording && manual ? 'Stop recording (R)' : 'Record (R)';
    button.setAttribute('aria-label', label);
    button.title = recording && !manual ? 'Recording by schedule or continuously; Record starts a manual recording too' : label;
    const view = describeRecording(entry?.state);
    badge.hidden = !view.label;
    badge.textContent = view.label;
    badge.dataset.tone = view.tone;
    badge.title = view.text;
  }

  /** The Record button: stops a manual recording, or asks for how long and starts one. */
  async toggle(anchor) {
    const camera = this.viewer.camera;
    if (!camera) return;
    const entry = this.states.get(camera.id);
    const recording = entry?.state?.state === 'recording';
    const manual = Boolean(entry?.state?.manualUntil) || (recording && entry?.mode !== 'continuous' && entry?.mode !== 'scheduled');
    try {
      if (recording && manual) {
        const config = await api.stopRecording(camera.id);
        this.states.set(camera.id, { mode: config.mode, state: config.state });
        this.app.toast(`Stopped recording “${camera.name}”`);
      } else {
        const choice = await openMenu(anchor ?? this.viewer.root.querySelector('.rec-button'), [
          { label: 'Record until I stop', icon: 'record', action: '0' },
          { label: 'Record 1 minute', icon: 'record', action: '60' },
          { label: 'Record 5 minutes', icon: 'record', action: '300' },
          { label: 'Record 15 minutes', icon: 'record', action: '900' },
          { label: 'Record 1 hour', icon: 'record', action: '3600' },
        ]);
        if (choice === null) return;
        const seconds = Number(choice) || null;
        const config = await api.startRecording(camera.id, seconds);
        this.states.set(camera.id, { mode: config.mode, state: config.state });
        this.app.toast(seconds ? `Recording “${camera.name}” for ${seconds >= 3600 ? `${seconds / 3600} h` : `${seconds / 60} min`}` : `Recording “${camera.name}” until you stop it`, 'good');
      }
    } catch (error) {
      this.app.toast(error.message, 'bad');
    }
    this.renderBadges();
    this.renderViewer();
  }

  // ----- the camera dialog's Recording section -----

  /** The dialog opened for `camera` (null: a new camera, which gets recording settings once saved). */
  async open(camera) {
    this.dialogCameraID = camera?.id ?? null;
    this.loaded = null;
    this.section.hidden = !camera;
    this.clearError('mode');
    this.clearError('schedule');
    this.clearError('retentionDays');
    this.section.querySelector('.schedule-windows').innerHTML = '';
    if (!camera) return;
    this.section.classList.add('is-loading');
    try {
      const config = await api.recording(camera.id);
      if (this.dialogCameraID !== camera.id) return;
      this.loaded = config;
      this.states.set(camera.id, { mode: config.mode, state: config.state });
      this.fill(config);
    } catch (error) {
      this.section.hidden = error.status === 404;
      this.renderStateText(`Couldn’t load the recording settings: ${error.message}`);
    } finally {
      this.section.classList.remove('is-loading');
    }
  }

  fill(config) {
    const elements = this.form.elements;
    for (const radio of this.form.querySelectorAll('input[name="mode"]')) radio.checked = radio.value === config.mode;
    elements.retentionDays.value = config.retentionDays ? String(config.retentionDays) : '';
    const list = this.section.querySelector('.schedule-windows');
    list.innerHTML = '';
    for (const window of config.schedule ?? []) this.addWindow(window);
    this.section.querySelector('.recording-summary').textContent = modeNames[config.mode] ?? config.mode;
    if (config.mode !== 'off') this.section.open = true;
    this.renderMode();
    this.renderState(config.state);
  }

  addWindow({ days = [], start = '08:00', end = '18:00' }) {
    const list = this.section.querySelector('.schedule-windows');
    const index = list.children.length;
    const row = document.createElement('div');
    row.className = 'schedule-window';
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', `Time window ${index + 1}`);
    // Monday first, as people read a week.
    const order = [1, 2, 3, 4, 5, 6, 0];
    row.innerHTML = `<div class="schedule-days">${order.map((day) => `<label class="day-toggle"><input type="checkbox" value="${day}"${days.includes(day) ? ' checked' : ''}><span>${dayNames[day]}</span></label>`).join('')}</div>
      <div class="schedule-times">
        <label><span class="visually-hidden">Start</span><input type="time" class="schedule-start" value="${start}" required></label>
        <span aria-hidden="true">–</span>
        <label><span class="visually-hidden">End</span><input type="time" class="schedule-end" value="${end}" required></label>
        <button type="button" class="icon-btn" data-recording-action="remove-window" aria-label="Remove this window">${icon('trash')}</button>
      </div>`;
    list.append(row);
  }

  renderMode() {
    const mode = this.form.querySelector('input[name="mode"]:checked')?.value ?? 'off';
    this.section.querySelector('.schedule-editor').hidden = mode !== 'scheduled';
    this.section.querySelector('.recording-mode-hint').textContent = modeHints[mode];
    if (mode === 'scheduled' && !this.section.querySelector('.schedule-window')) {
      this.addWindow({ days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' });
    }
    this.clearError('mode');
  }

  renderState(state) {
    this.renderStateText(describeRecording(state).text, describeRecording(state).tone);
  }

  renderStateText(text, tone = 'off') {
    const line = this.section.querySelector('.recording-state');
    line.textContent = text;
    line.dataset.tone = tone;
  }

  /** The settings in the form: {mode, schedule, retentionDays}, or throws an error naming the field. */
  settings() {
    const mode = this.form.querySelector('input[name="mode"]:checked')?.value ?? 'off';
    const schedule = [...this.section.querySelectorAll('.schedule-window')].map((row) => ({
      days: [...row.querySelectorAll('.schedule-days input:checked')].map((input) => Number(input.value)).sort(),
      start: row.querySelector('.schedule-start').value,
      end: row.querySelector('.schedule-end').value,
    }));
    const retentionText = this.form.elements.retentionDays.value.trim();
    const retentionDays = retentionText ? Number(retentionText) : null;
    if (retentionText && (!Number.isInteger(retentionDays) || retentionDays < 1)) {
      throw new APIError('Type a whole number of days, like 30, or leave it empty to keep footage until space is needed.', { status: 400, field: 'retentionDays' });
    }
    if (mode === 'scheduled') {
      if (!schedule.length) throw new APIError('Add at least one time window, or choose another mode.', { status: 400, field: 'schedule' });
      if (schedule.some((window) => !window.days.length)) throw new APIError('Pick at least one day for every window.', { status: 400, field: 'schedule' });
      if (schedule.some((window) => !window.start || !window.end)) throw new APIError('Give every window a start and an end time.', { status: 400, field: 'schedule' });
      if (schedule.some((window) => window.start === window.end)) throw new APIError('A window’s start and end must differ.', { status: 400, field: 'schedule' });
    }
    return { mode, schedule: mode === 'scheduled' ? schedule : (this.loaded?.schedule ?? []), retentionDays };
  }

  /** Called by the camera dialog before it closes: saves the recording settings when they changed. */
  async save(camera) {
    if (!this.loaded || this.section.hidden || camera.id !== this.dialogCameraID) return;
    const settings = this.settings();
    const before = { mode: this.loaded.mode, schedule: this.loaded.schedule ?? [], retentionDays: this.loaded.retentionDays ?? null };
    if (JSON.stringify(settings) === JSON.stringify(before)) return;
    try {
      const config = await api.setRecording(camera.id, settings);
      this.loaded = config;
      this.states.set(camera.id, { mode: config.mode, state: config.state });
      this.renderBadges();
    } catch (error) {
      // Shown under the field the server names (the dialog does that), in the open section.
      this.section.open = true;
      if (error.field && !this.form.elements[error.field]) error.field = null;
      throw error;
    }
  }

  clearError(field) {
    const slot = this.section.querySelector(`[data-error-for="${field}"]`);
    if (slot) slot.hidden = true;
    this.form.elements[field]?.removeAttribute?.('aria-invalid');
  }
}
