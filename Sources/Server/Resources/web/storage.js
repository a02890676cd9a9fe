// The storage page (issue 7): how full the recordings' disk is (recordings, other files, free), what
// each camera uses and keeps, and the global limits (GET /api/storage, PUT /api/settings/storage).
// Errors from the server appear under the field it names. Route: #storage.

import { api, normalizeID } from './api.js';
import { icon } from './icons.js';

const escapeHTML = (text) => String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const GB = 1e9;

/** "1.2 GB", "340 MB", "12 kB" (decimal units, as disks are sold). */
export function bytesText(bytes) {
  if (bytes === null || bytes === undefined) return '—';
  const units = [['TB', 1e12], ['GB', 1e9], ['MB', 1e6], ['kB', 1e3]];
  for (const [unit, size] of units) {
    if (bytes >= size) return `${(bytes / size).toFixed(bytes / size >= 100 ? 0 : 1)} ${unit}`;
  }
  return `${bytes} B`;
}

const dateText = (iso) => (iso ? new Date(iso).toLocaleString([], { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }) : '—');

/** "2.5" (GB) from a form field → bytes, or null for empty; NaN when not a number. */
function gigabytes(text) {
  const trimmed = String(text).trim().replace(',', '.');
  if (!trimmed) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? Math.round(value * GB) : NaN;
}

export class StorageView {
  /** app: { toast(message, tone), editCamera(id) } */
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.active = false;
    this.data = null;
    this.timer = 0;
    root.innerHTML = `
      <div class="storage-page">
        <header class="storage-head">
          <h1>Storage</h1>
          <button type="button" class="icon-btn" data-storage-action="refresh" aria-label="Refresh" title="Refresh">${icon('refresh')}</button>
        </header>
        <p class="storage-error form-error" role="alert" hidden><span></span></p>
        <section class="storage-card storage-usage" aria-labelledby="storage-usage-title">
          <h2 id="storage-usage-title">Disk</h2>
          <p class="storage-directory"></p>
          <div class="storage-bar" role="img"><span class="bar-recordings"></span><span class="bar-other"></span></div>
          <ul class="storage-legend">
            <li><span class="swatch swatch-recordings"></span>Recordings <strong class="value-recordings">—</strong></li>
            <li><span class="swatch swatch-other"></span>Other files <strong class="value-other">—</strong></li>
            <li><span class="swatch swatch-free"></span>Free <strong class="value-free">—</strong></li>
          </ul>
        </section>
        <section class="storage-card" aria-labelledby="storage-cameras-title">
          <h2 id="storage-cameras-title">Per camera</h2>
          <div class="storage-table-wrap">
            <table class="storage-table">
              <thead><tr><th scope="col">Camera</th><th scope="col">Used</th><th scope="col">Segments</th><th scope="col">Oldest</th><th scope="col">Kept for</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
              <tbody></tbody>
            </table>
          </div>
          <p class="storage-empty" hidden>Nothing recorded yet. Turn recording on in a camera’s settings (Recording).</p>
        </section>
        <section class="storage-card" aria-labelledby="storage-limits-title">
          <h2 id="storage-limits-title">Limits</h2>
          <p class="storage-lead">When a limit is reached, the oldest recordings that are not protected are deleted first.</p>
          <form class="storage-form" novalidate>
            <div class="field">
              <label for="storage-max">Use at most <span class="optional">GB, empty for no limit</span></label>
              <input id="storage-max" name="maxBytes" type="text" inputmode="decimal" autocomplete="off" placeholder="No limit" aria-describedby="storage-max-error">
              <p class="field-error" id="storage-max-error" data-error-for="maxBytes" hidden></p>
            </div>
            <div class="field">
              <label for="storage-free">Always leave free <span class="optional">GB</span></label>
              <input id="storage-free" name="minFreeBytes" type="text" inputmode="decimal" autocomplete="off" placeholder="1" aria-describedby="storage-free-error">
              <p class="field-error" id="storage-free-error" data-error-for="minFreeBytes" hidden></p>
            </div>
            <div class="storage-form-foot">
              <button type="submit" class="btn btn-primary">Save limits</button>
              <span class="storage-saved" role="status"></span>
            </div>
          </form>
          <p class="field-hint">How long each camera’s footage is kept is set in the camera’s settings, under Recording.</p>
        </section>
      </div>`;
    this.form = root.querySelector('.storage-form');
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.save();
    });
    this.form.addEventListener('input', (event) => {
      this.clearError(event.target.name);
      root.querySelector('.storage-saved').textContent = '';
    });
    root.addEventListener('click', (event) => {
      const button = event.target.closest('[data-storage-action]');
      if (!button) return;
      if (button.dataset.storageAction === 'refresh') this.load();
      else if (button.dataset.storageAction === 'edit') this.app.editCamera(normalizeID(button.dataset.id));
    });
  }

  show() {
    this.active = true;
    this.root.hidden = false;
    this.load({ fillForm: true });
    clearInterval(this.timer);
    this.timer = setInterval(() => { if (!document.hidden) this.load(); }, 15000);
  }

  hide() {
    this.active = false;
    this.root.hidden = true;
    clearInterval(this.timer);
  }

  async load({ fillForm = false } = {}) {
    const banner = this.root.querySelector('.storage-error');
    try {
      this.data = await api.storage();
      banner.hidden = true;
    } catch (error) {
      banner.hidden = false;
      banner.querySelector('span').textContent = error.message;
      return;
    }
    this.render();
    if (fillForm) this.fillForm();
    this.root.dataset.loaded = String(Date.now());
  }

  fillForm() {
    const settings = this.data?.settings ?? {};
    const fields = this.form.elements;
    fields.maxBytes.value = settings.maxBytes ? String(Math.round((settings.maxBytes / GB) * 100) / 100) : '';
    fields.minFreeBytes.value = settings.minFreeBytes !== undefined && settings.minFreeBytes !== null
      ? String(Math.round((settings.minFreeBytes / GB) * 100) / 100) : '';
  }

  render() {
    const data = this.data;
    const total = data.totalBytes || 0;
    const free = data.freeBytes || 0;
    const recordings = data.recordingBytes || 0;
    const other = Math.max(0, total - free - recordings);
    const share = (value) => (total ? `${Math.max(0, Math.min(100, (value / total) * 100))}%` : '0%');
    const $ = (selector) => this.root.querySelector(selector);
    $('.storage-directory').textContent = `Recordings are kept in ${data.directory} · ${bytesText(total)} disk`;
    // Any footage at all shows as a sliver, however large the disk.
    $('.bar-recordings').style.width = share(recordings);
    $('.bar-recordings').style.minWidth = recordings > 0 ? '4px' : '0';
    $('.bar-other').style.width = share(other);
    $('.bar-other').style.minWidth = other > 0 ? '2px' : '0';
    $('.storage-bar').setAttribute('aria-label', `Recordings ${bytesText(recordings)}, other files ${bytesText(other)}, free ${bytesText(free)} of ${bytesText(total)}`);
    $('.value-recordings').textContent = bytesText(recordings);
    $('.value-other').textContent = bytesText(other);
    $('.value-free').textContent = bytesText(free);
    const minFree = data.settings?.minFreeBytes ?? 0;
    $('.storage-usage').classList.toggle('is-low', total > 0 && free <= minFree * 1.1);
    const cameras = data.cameras ?? [];
    $('.storage-empty').hidden = cameras.some((camera) => camera.segments > 0);
    $('.storage-table tbody').innerHTML = cameras.map((camera) => `
      <tr data-camera-id="${escapeHTML(normalizeID(camera.id))}">
        <th scope="row">${escapeHTML(camera.name)}</th>
        <td class="num">${bytesText(camera.bytes)}</td>
        <td class="num">${camera.segments ?? 0}</td>
        <td>${dateText(camera.oldest)}</td>
        <td>${camera.retentionDays ? `${camera.retentionDays} days` : 'Until space is needed'}</td>
        <td><button type="button" class="btn btn-secondary btn-small" data-storage-action="edit" data-id="${escapeHTML(camera.id)}" aria-label="Recording settings of ${escapeHTML(camera.name)}">Settings</button></td>
      </tr>`).join('');
  }

  async save() {
    const fields = this.form.elements;
    const maxBytes = gigabytes(fields.maxBytes.value);
    const minFree = gigabytes(fields.minFreeBytes.value);
    let bad = false;
    if (Number.isNaN(maxBytes)) {
      this.setError('maxBytes', 'Type a number of gigabytes, like 500, or leave it empty for no limit.');
      bad = true;
    }
    if (Number.isNaN(minFree)) {
      this.setError('minFreeBytes', 'Type a number of gigabytes, like 5.');
      bad = true;
    }
    if (bad) return;
    const button = this.form.querySelector('[type="submit"]');
    button.disabled = true;
    try {
      const settings = await api.setStorage({ maxBytes, minFreeBytes: minFree ?? 0 });
      if (this.data) this.data.settings = settings;
      this.root.querySelector('.storage-saved').textContent = 'Saved.';
      this.app.toast('Storage limits saved', 'good');
      this.load();
    } catch (error) {
      if (error.field && this.form.elements[error.field]) this.setError(error.field, error.message);
      else {
        const banner = this.root.querySelector('.storage-error');
        banner.hidden = false;
        banner.querySelector('span').textContent = error.message;
      }
    } finally {
      button.disabled = false;
    }
  }

  setError(field, message) {
    const slot = this.root.querySelector(`[data-error-for="${field}"]`);
    this.form.elements[field]?.setAttribute('aria-invalid', 'true');
    if (slot) {
      slot.textContent = message;
      slot.hidden = false;
    }
    this.form.elements[field]?.focus();
  }

  clearError(field) {
    if (!field) return;
    this.form.elements[field]?.removeAttribute('aria-invalid');
    const slot = this.root.querySelector(`[data-error-for="${field}"]`);
    if (slot) slot.hidden = true;
  }
}
