// "Find cameras": starts a discovery (ONVIF + RTSP scan) on the server, shows its progress, lists what it
// found, and adds the chosen devices with credentials given once for all or per device.
//
// API: POST /api/discoveries → 202 {id, progress}; progress pushed by GET /api/discoveries/{id}/events
// (server-sent events: `progress` at every change, then `done` with the devices), with GET /api/discoveries/{id}
// polled only when that stream drops; POST /api/discoveries/{id}/add; GET/PUT /api/settings/discovery for the
// form's defaults.

import { hydrateIcons } from './icons.js';
import { confirmAction, toast } from './dialogs.js';
import { call } from './api.js';

const pollInterval = 300;

const escapeHTML = (text) => String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

/** The number of hosts a subnet has, as the server counts them (or null when it is not A.B.C.D/N). */
export function subnetPrefix(text) {
  const match = /^\s*(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return match[5] === undefined ? 32 : Number(match[5]);
}

const template = `
  <form novalidate>
    <header class="dialog-head">
      <h2 class="dialog-title" id="discovery-title" tabindex="-1">Find cameras</h2>
      <button type="button" class="icon-btn" data-action="close" aria-label="Close" data-icon="close"></button>
    </header>
    <div class="dialog-body">
      <section class="discovery-setup">
        <div class="field">
          <label for="discovery-subnets">Networks to search</label>
          <input id="discovery-subnets" name="subnets" type="text" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="192.168.1.0/24" inputmode="decimal">
          <p class="field-error" data-error-for="subnets" hidden></p>
          <p class="field-hint">Subnets as A.B.C.D/N, separated by commas. Leave empty for this box’s own network.</p>
        </div>
        <div class="field-row">
          <div class="field">
            <label for="discovery-ports">Ports</label>
            <input id="discovery-ports" name="ports" type="text" autocomplete="off" spellcheck="false" inputmode="numeric" placeholder="554, 8554, 88, 7447, 5000">
            <p class="field-error" data-error-for="ports" hidden></p>
          </div>
          <label class="check discovery-onvif">
            <input type="checkbox" name="onvif" role="switch" class="switch" checked>
            <span><strong>ONVIF</strong><small>Ask cameras for their name and streams.</small></span>
          </label>
        </div>
        <div class="field">
          <label for="discovery-onvif-devices">ONVIF cameras to ask directly <span class="optional">optional</span></label>
          <input id="discovery-onvif-devices" name="onvifDevices" type="text" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="192.168.2.10, 192.168.2.11:8080" inputmode="url">
          <p class="field-error" data-error-for="onvifDevices" hidden></p>
          <p class="field-hint">For cameras the network search does not reach (another subnet or VLAN): their addresses, inside the networks above.</p>
        </div>
        <div class="field-row">
          <div class="field">
            <label for="discovery-username">Username <span class="optional">to try</span></label>
            <input id="discovery-username" name="username" type="text" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="admin">
            <p class="field-error" data-error-for="username" hidden></p>
          </div>
          <div class="field">
            <label for="discovery-password">Password</label>
            <input id="discovery-password" name="password" type="password" autocomplete="new-password">
          </div>
        </div>
        <p class="form-error" role="alert" hidden><span></span></p>
      </section>

      <section class="discovery-run" hidden aria-live="polite">
        <div class="discovery-progress-head">
          <span class="discovery-phase">Searching…</span>
          <span class="discovery-counts"></span>
        </div>
        <div class="discovery-bar" role="progressbar" aria-label="Hosts scanned" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0">
          <span class="discovery-bar-fill"></span>
        </div>
      </section>

      <section class="discovery-results" hidden>
        <div class="discovery-results-head">
          <label class="check discovery-select-all"><input type="checkbox" name="all"><span><strong>Select all new</strong></span></label>
          <label class="check discovery-per-device"><input type="checkbox" name="perDevice"><span><small>Different credentials per camera</small></span></label>
        </div>
        <ul class="discovery-list" aria-label="Devices found"></ul>
        <p class="discovery-empty" hidden>No cameras found. Check the networks and ports, turn RTSP or ONVIF on in the cameras, or add one by its address.</p>
      </section>
    </div>
    <footer class="dialog-foot">
      <span class="discovery-foot-note"></span>
      <span class="spacer"></span>
      <button type="button" class="btn btn-secondary" data-action="cancel">Cancel</button>
      <button type="button" class="btn btn-secondary" data-action="again" hidden><span data-icon="refresh"></span>Search again</button>
      <button type="submit" class="btn btn-primary" data-action="search"><span data-icon="gauge"></span>Search</button>
      <button type="button" class="btn btn-primary" data-action="add" hidden disabled><span data-icon="plus"></span>Add selected</button>
    </footer>
  </form>`;

export class DiscoveryDialog {
  constructor({ onAdded, confirmDialog }) {
    this.onAdded = onAdded;
    this.confirmDialog = confirmDialog;
    const dialog = document.createElement('dialog');
    dialog.id = 'discovery-dialog';
    dialog.className = 'sheet discovery';
    dialog.setAttribute('aria-labelledby', 'discovery-title');
    dialog.innerHTML = template;
    hydrateIcons(dialog);
    document.body.append(dialog);
    this.dialog = dialog;
    this.form = dialog.querySelector('form');
    this.run = null;
    this.pollTimer = 0;
    this.form.addEventListener('submit', (event) => { event.preventDefault(); this.search(); });
    dialog.addEventListener('click', (event) => {
      const action = event.target.closest('[data-action]')?.dataset.action;
      if (action === 'close' || action === 'cancel') this.close();
      else if (action === 'again') this.showSetup();
      else if (action === 'add') this.addSelected();
    });
    dialog.addEventListener('close', () => this.stop());
    this.form.elements.all.addEventListener('change', (event) => {
      for (const box of this.dialog.querySelectorAll('.discovery-item input[name="pick"]:not(:disabled)')) box.checked = event.target.checked;
      this.updateAddButton();
    });
    this.form.elements.perDevice.addEventListener('change', () => this.dialog.classList.toggle('per-device', this.form.elements.perDevice.checked));
    dialog.querySelector('.discovery-list').addEventListener('change', () => this.updateAddButton());
  }

  async open() {
    this.showSetup();
    this.dialog.showModal();
    try {
      const settings = await call('GET', '/api/settings/discovery');
      const elements = this.form.elements;
      if (!elements.subnets.value) elements.subnets.value = settings.subnets.join(', ');
      elements.subnets.placeholder = settings.defaultSubnet || '192.168.1.0/24';
      if (!elements.ports.value) elements.ports.value = settings.ports.join(', ');
      elements.onvif.checked = settings.onvif;
      if (!elements.username.value) elements.username.value = settings.username;
      elements.password.placeholder = settings.hasPassword ? 'saved' : '';
    } catch (error) {
      this.showFormError(error.message);
    }
  }

  close() {
    this.stop();
    if (this.dialog.open) this.dialog.close();
  }

  stop() {
    this.closeEvents();
    clearTimeout(this.pollTimer);
    this.pollTimer = 0;
    if (this.run && this.run.state === 'running') call('DELETE', `/api/discoveries/${this.run.id}`).catch(() => {});
  }

  showSetup() {
    this.stop();
    this.run = null;
    this.section('setup').hidden = false;
    this.section('run').hidden = true;
    this.section('results').hidden = true;
    this.button('search').hidden = false;
    this.button('again').hidden = true;
    this.button('add').hidden = true;
    this.dialog.querySelector('.discovery-foot-note').textContent = '';
  }

  section(name) { return this.dialog.querySelector(`.discovery-${name}`); }
  button(name) { return this.dialog.querySelector(`[data-action="${name}"]`); }

  showFormError(message, field = null) {
    for (const element of this.dialog.querySelectorAll('.field-error')) element.hidden = true;
    const target = field && this.dialog.querySelector(`[data-error-for="${field.replace(/\[.*$/, '')}"]`);
    const general = this.dialog.querySelector('.form-error');
    if (target) {
      target.textContent = message;
      target.hidden = false;
      general.hidden = true;
    } else {
      general.querySelector('span').textContent = message;
      general.hidden = !message;
    }
  }

  request(allowLarge = false) {
    const elements = this.form.elements;
    const subnets = elements.subnets.value.split(/[\s,]+/).filter(Boolean);
    const ports = elements.ports.value.split(/[\s,]+/).filter(Boolean).map((text) => (/^\d+$/.test(text) ? Number(text) : text));
    const body = { subnets, onvif: elements.onvif.checked, allowLarge };
    if (ports.length) body.ports = ports;
    const onvifDevices = elements.onvifDevices.value.split(/[\s,]+/).filter(Boolean);
    if (onvifDevices.length) body.onvifDevices = onvifDevices;
    if (elements.username.value) {
      body.username = elements.username.value;
      body.password = elements.password.value;
    }
    return body;
  }

  async search() {
    this.showFormError('');
    let body = this.request();
    if (body.ports?.some((port) => typeof port !== 'number')) {
      this.showFormError('Ports are numbers from 1 to 65535, separated by commas.', 'ports');
      return;
    }
    const large = body.subnets.filter((subnet) => (subnetPrefix(subnet) ?? 32) < 22);
    if (large.length) {
      const ok = await confirmAction(this.confirmDialog, {
        title: 'Search a large network?',
        message: `${large.join(', ')} holds more than 1,022 addresses: the search takes longer and knocks on every one of them.`,
        confirm: 'Search',
      });
      if (!ok) return;
      body = this.request(true);
    }
    this.button('search').disabled = true;
    try {
      this.run = await call('POST', '/api/discoveries', body);
    } catch (error) {
      this.showFormError(error.message, error.field);
      return;
    } finally {
      this.button('search').disabled = false;
    }
    this.section('setup').hidden = true;
    this.section('run').hidden = false;
    this.section('results').hidden = true;
    this.button('search').hidden = true;
    this.showProgress(this.run);
    this.watch();
  }

  /** Follows the run live over server-sent events; falls back to polling when the stream fails (no EventSource,
   *  a proxy that buffers, the connection dropped), picking up from the run's state at that moment. */
  watch() {
    const run = this.run;
    if (!run) return;
    if (typeof EventSource !== 'function') { this.usePolling(); return; }
    const source = new EventSource(`/api/discoveries/${run.id}/events`);
    this.events = source;
    this.dialog.dataset.progressSource = 'push';
    this.dialog.dataset.pushEvents = '0';
    const take = (event) => {
      if (this.run?.id !== run.id || this.events !== source) return null;
      this.dialog.dataset.pushEvents = String(Number(this.dialog.dataset.pushEvents) + 1);
      return JSON.parse(event.data);
    };
    source.addEventListener('progress', (event) => {
      const update = take(event);
      if (!update) return;
      this.run = update;
      this.showProgress(update);
    });
    source.addEventListener('done', (event) => {
      const update = take(event);
      this.closeEvents();
      if (!update) return;
      this.run = update;
      this.showProgress(update);
      this.showResults(update);
    });
    source.addEventListener('error', () => {
      if (this.events !== source) return;
      this.closeEvents();
      if (this.run?.id === run.id && this.run.state === 'running') this.usePolling();
    });
  }

  closeEvents() {
    this.events?.close();
    this.events = null;
  }

  usePolling() {
    this.dialog.dataset.progressSource = 'poll';
    this.poll();
  }

  async poll() {
    if (!this.run) return;
    try {
      this.run = await call('GET', `/api/discoveries/${this.run.id}`);
    } catch (error) {
      toast(error.message, 'bad');
    }
    if (!this.run) return;
    this.showProgress(this.run);
    if (this.run.state === 'running') this.pollTimer = setTimeout(() => this.poll(), pollInterval);
    else this.showResults(this.run);
  }

  showProgress(run) {
    const { hostsScanned, hostsTotal, devicesFound } = run.progress;
    const percent = hostsTotal ? Math.round((hostsScanned / hostsTotal) * 100) : 100;
    const bar = this.dialog.querySelector('.discovery-bar');
    bar.setAttribute('aria-valuenow', String(percent));
    bar.dataset.scanned = String(hostsScanned);
    bar.querySelector('.discovery-bar-fill').style.width = `${percent}%`;
    this.dialog.querySelector('.discovery-phase').textContent = run.state === 'running'
      ? `Searching ${run.subnets.join(', ')}…` : run.state === 'cancelled' ? 'Stopped' : 'Done';
    this.dialog.querySelector('.discovery-counts').textContent =
      `${hostsScanned} of ${hostsTotal} hosts · ${devicesFound} ${devicesFound === 1 ? 'device' : 'devices'} found`;
  }

  /** One row per device; a device without ONVIF profiles that serves streams on several RTSP ports (a recorder,
   *  or several cameras behind one address) gets one row per port, each added as its own camera. */
  entries(run) {
    const rows = [];
    for (const device of run.devices) {
      const withURLs = device.endpoints.filter((endpoint) => endpoint.workingURLs.length);
      if (device.profiles.length === 0 && withURLs.length > 1) {
        for (const endpoint of withURLs) {
          rows.push({ device, port: endpoint.port, urls: endpoint.workingURLs,
                      registered: device.registeredPorts.includes(endpoint.port) });
        }
      } else {
        rows.push({ device, port: null, urls: device.rtspURLs, registered: device.alreadyRegistered });
      }
    }
    return rows;
  }

  showResults(run) {
    const list = this.dialog.querySelector('.discovery-list');
    this.rows = this.entries(run);
    list.innerHTML = this.rows.map((row, index) => this.itemHTML(row, index)).join('');
    hydrateIcons(list);
    this.section('results').hidden = false;
    this.dialog.querySelector('.discovery-empty').hidden = run.devices.length > 0;
    this.dialog.querySelector('.discovery-results-head').hidden = run.devices.length === 0;
    this.form.elements.all.checked = false;
    this.button('again').hidden = false;
    this.button('add').hidden = run.devices.length === 0;
    this.updateAddButton();
  }

  itemHTML(row, index) {
    const { device } = row;
    const title = device.name || [device.vendor || device.manufacturer, device.model].filter(Boolean).join(' ') || 'Unknown device';
    const badges = [];
    if (device.onvif) badges.push('<span class="discovery-badge onvif">ONVIF</span>');
    if (row.registered) badges.push('<span class="discovery-badge added">Already added</span>');
    if (device.authenticationFailed) badges.push('<span class="discovery-badge bad">Password refused</span>');
    else if (device.requiresAuthentication && !row.urls.length) badges.push('<span class="discovery-badge warn">Needs password</span>');
    const urls = row.urls.length
      ? row.urls.map((url) => `<li>${escapeHTML(url)}</li>`).join('')
      : `<li class="muted">${escapeHTML(device.onvifError || (device.requiresAuthentication ? 'Search again with its username and password to find its streams.' : 'No stream address found.'))}</li>`;
    const disabled = row.registered ? 'disabled' : '';
    const ports = row.port ? [row.port] : device.ports;
    const meta = [device.ip, ports.length ? `port ${ports.join(', ')}` : null, device.server].filter(Boolean).join(' · ');
    const place = row.port ? `${device.ip}:${row.port}` : device.ip;
    return `
      <li class="discovery-item${row.registered ? ' is-added' : ''}" data-ip="${escapeHTML(device.ip)}" data-port="${row.port ?? ''}" data-index="${index}">
        <label class="discovery-pick">
          <input type="checkbox" name="pick" value="${index}" ${disabled} aria-label="Add ${escapeHTML(title)} (${escapeHTML(place)})">
        </label>
        <div class="discovery-item-body">
          <div class="discovery-item-title"><strong>${escapeHTML(title)}</strong>${badges.join('')}</div>
          <div class="discovery-item-meta">${escapeHTML(meta)}</div>
          <ul class="discovery-urls">${urls}</ul>
          <div class="discovery-credentials field-row">
            <input type="text" name="user-${index}" placeholder="Username" autocomplete="off" autocapitalize="off" spellcheck="false" aria-label="Username for ${escapeHTML(place)}">
            <input type="password" name="pass-${index}" placeholder="Password" autocomplete="new-password" aria-label="Password for ${escapeHTML(place)}">
          </div>
        </div>
      </li>`;
  }

  /** The chosen rows' indexes. */
  picked() {
    return [...this.dialog.querySelectorAll('.discovery-item input[name="pick"]:checked')].map((box) => Number(box.value));
  }

  updateAddButton() {
    const count = this.picked().length;
    const button = this.button('add');
    button.disabled = count === 0;
    button.lastChild.textContent = count > 1 ? `Add ${count} cameras` : 'Add selected';
  }

  async addSelected() {
    const picked = this.picked();
    if (!picked.length || !this.run) return;
    const perDevice = this.form.elements.perDevice.checked;
    const shared = this.form.elements.username.value;
    const devices = picked.map((index) => {
      const row = this.rows[index];
      const entry = { ip: row.device.ip };
      if (row.port) entry.port = row.port;
      if (perDevice) {
        const user = this.form.elements[`user-${index}`]?.value;
        if (user) {
          entry.username = user;
          entry.password = this.form.elements[`pass-${index}`]?.value ?? '';
        }
      }
      return entry;
    });
    const body = { devices };
    if (shared) {
      body.username = shared;
      body.password = this.form.elements.password.value;
    }
    const button = this.button('add');
    button.disabled = true;
    let result;
    try {
      result = await call('POST', `/api/discoveries/${this.run.id}/add`, body);
    } catch (error) {
      toast(error.message, 'bad');
      button.disabled = false;
      return;
    }
    const added = result.results.filter((entry) => entry.status === 'added');
    const duplicates = result.results.filter((entry) => entry.status === 'duplicate');
    const failed = result.results.filter((entry) => entry.status === 'failed');
    if (added.length) toast(`Added ${added.length} ${added.length === 1 ? 'camera' : 'cameras'}`, 'good');
    if (duplicates.length) toast(`${duplicates.map((entry) => entry.ip).join(', ')} already added: not added again`, 'info');
    for (const entry of failed) toast(`${entry.ip}${entry.port ? `:${entry.port}` : ''}: ${entry.error}`, 'bad');
    await this.onAdded?.(added.map((entry) => entry.cameraID));
    if (!failed.length) this.close();
    else {
      for (const entry of result.results.filter((item) => item.status !== 'failed')) {
        const item = this.dialog.querySelector(`.discovery-item[data-ip="${CSS.escape(entry.ip)}"][data-port="${entry.port ?? ''}"]`);
        item?.classList.add('is-added');
        const box = item?.querySelector('input[name="pick"]');
        if (box) { box.checked = false; box.disabled = true; }
      }
      this.updateAddButton();
    }
  }
}
