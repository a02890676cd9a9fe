// Floor plans: the list of sites with their plans (search across site, plan and camera names), a plan
// with every camera in place (PlanStage), an info panel on tap, live video on long-press, editing for
// administrators on a desktop, live updates from the `plans` server-sent event, and offline use: the
// service worker (sw.js) keeps what was viewed, and answers from it — marked — when WatchBox is away.

import { liveURL, normalizeID } from './api.js';
import { icon } from './icons.js';
import { LivePlayer } from './player.js';
import { PlanStage, markerState, stateLabels } from './plan-stage.js';
import { describe } from './status.js';

const escapeHTML = (text) => String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const floorName = (level) => (level === 0 ? 'Ground floor' : level < 0 ? `Basement ${-level}` : `Floor ${level}`);
const searchIcon = '<svg class="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" aria-hidden="true"><circle cx="11" cy="11" r="6.5"/><path d="m16 16 4.5 4.5"/></svg>';

const timeText = (date) => date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function ago(iso) {
  if (!iso) return 'never';
  const seconds = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

/** A plans API call. GETs may come from the service worker's cache: then `offline` is true and `cachedAt`
 *  says when the answer was stored. Failures throw an Error whose message a person can act on. */
async function request(method, path, body, { raw = false } = {}) {
  const init = { method, headers: { Accept: 'application/json' } };
  if (method === 'GET') init.headers['X-WatchBox-Offline'] = 'allow';
  else init.cache = 'no-store';
  if (body !== undefined) {
    if (raw) init.body = body;
    else {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    const error = new Error("Can't reach WatchBox, and this wasn't saved on this device yet.");
    error.unreachable = true;
    throw error;
  }
  if (response.status === 204) return { data: null };
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(data?.error || `WatchBox answered ${response.status}`);
    error.field = data?.field;
    throw error;
  }
  const cachedAt = response.headers.get('X-WatchBox-Cached-At');
  return { data, offline: response.headers.get('X-WatchBox-Offline') === '1', cachedAt: cachedAt ? new Date(cachedAt) : null };
}

export class PlansView {
  /** app: { cameras(): [camera], status(id): status, toast(message, tone) } */
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.sites = [];
    this.current = null; // {plan, siteName, placements}
    this.statuses = new Map();
    this.editing = false;
    this.active = false;
    this.query = '';
    this.offline = null; // Date of the cached answer shown, or null
    this.live = null;
    this.infoFor = null;
    this.reloadTimer = 0;
    this.edits = 0; // counts local changes to the placements: an answer asked for before one is out of date
    this.staleReload = false; // a reload was dropped while saves were in flight: reload once they are done
    this.keptCameras = [];

    root.innerHTML = `
      <div class="plans-layout">
        <aside class="plans-sidebar" aria-label="Sites and floor plans">
          <div class="plans-sidebar-head">
            <h1>Floor plans</h1>
            <button type="button" class="btn btn-secondary btn-small admin-only" data-plans-action="new-site">${icon('plus')}New site</button>
          </div>
          <label class="plans-search">${searchIcon}<input type="search" placeholder="Search sites, plans, cameras" aria-label="Search sites, plans and cameras" autocomplete="off"></label>
          <div class="plans-pull" aria-hidden="true"><span class="spinner small"></span></div>
          <div class="plans-list" role="list"></div>
        </aside>
        <section class="plan-pane" aria-live="polite">
          <header class="plan-head">
            <button type="button" class="icon-btn plan-back" data-plans-action="back" aria-label="All plans">${icon('back')}</button>
            <div class="plan-title"><span class="plan-site"></span><h2 class="plan-name"></h2></div>
            <div class="plan-floors" role="tablist" aria-label="Floors"></div>
            <span class="plan-offline" role="status" hidden></span>
            <div class="plan-tools">
              <button type="button" class="icon-btn" data-plans-action="refresh" aria-label="Refresh" title="Refresh">${icon('refresh')}</button>
              <button type="button" class="btn btn-secondary btn-small admin-only" data-plans-action="plan-settings">${icon('edit')}<span>Plan</span></button>
              <button type="button" class="btn btn-secondary btn-small admin-only plan-edit-toggle" data-plans-action="edit" aria-pressed="false">${icon('grip')}<span>Edit</span></button>
            </div>
          </header>
          <div class="plan-body">
            <div class="plan-stage-host"></div>
            <aside class="plan-editor" hidden aria-label="Place cameras">
              <h3>Cameras</h3>
              <p class="plan-editor-hint">Drag a camera onto the plan. Drag a marker to move it; drag its handles to turn it and set its view.</p>
              <div class="plan-camera-list" role="list"></div>
              <div class="plan-selected" hidden>
                <h3 class="plan-selected-name"></h3>
                <label class="field"><span>Direction <output data-out="direction"></output>°</span><input type="range" name="direction" min="0" max="359" step="1"></label>
                <label class="field"><span>Field of view <output data-out="fieldOfView"></output>°</span><input type="range" name="fieldOfView" min="1" max="360" step="1"></label>
                <label class="field"><span>Range <output data-out="range"></output>%</span><input type="range" name="range" min="1" max="100" step="1"></label>
                <button type="button" class="btn btn-danger-quiet" data-plans-action="remove-placement">${icon('trash')}Remove from plan</button>
              </div>
            </aside>
          </div>
          <div class="plan-empty" hidden></div>
          <div class="plan-info" hidden role="dialog" aria-label="Camera"></div>
        </section>
      </div>
      <dialog class="simple plans-dialog" id="plans-dialog"><form method="dialog" novalidate></form></dialog>
      <dialog class="plan-live" id="plan-live" aria-label="Live video">
        <div class="plan-live-head"><span class="dot"></span><h2 class="plan-live-name"></h2><span class="plan-live-state"></span>
          <button type="button" class="icon-btn glass" data-live-action="close" aria-label="Close">${icon('close')}</button></div>
        <video muted playsinline autoplay disablepictureinpicture></video>
      </dialog>`;

    this.list = root.querySelector('.plans-list');
    this.search = root.querySelector('.plans-search input');
    this.stage = new PlanStage(root.querySelector('.plan-stage-host'), {
      onTap: (placement) => this.showInfo(placement),
      onLongPress: (placement) => placement && this.openLive(placement.cameraID),
      onMove: (placement, fields) => this.savePlacement(placement, fields),
      onSelect: (placement) => this.selectPlacement(placement),
      onEditing: (placement) => this.showSelected(placement),
      onBackground: () => this.hideInfo(),
    });
    this.dialog = root.querySelector('#plans-dialog');
    this.liveDialog = root.querySelector('#plan-live');

    this.search.addEventListener('input', () => {
      this.query = this.search.value.trim().toLowerCase();
      this.renderList();
    });
    root.addEventListener('click', (event) => this.click(event));
    this.liveDialog.addEventListener('close', () => this.closeLive());
    // A tap on the backdrop closes; the click a browser sends when a long press ends (it began on the marker,
    // under what is now the backdrop) does not.
    this.liveDialog.addEventListener('pointerdown', (event) => { this.backdropPressed = event.target === this.liveDialog; });
    this.liveDialog.addEventListener('click', (event) => {
      const backdrop = event.target === this.liveDialog && this.backdropPressed;
      this.backdropPressed = false;
      // Stop the player now: the dialog's own 'close' event (Escape) only comes in a later task.
      if (backdrop || event.target.closest('[data-live-action="close"]')) {
        this.closeLive();
        if (this.liveDialog.open) this.liveDialog.close();
      }
    });
    for (const input of root.querySelectorAll('.plan-selected input')) {
      input.addEventListener('input', () => this.sliderChanged(input, false));
      input.addEventListener('change', () => this.sliderChanged(input, true));
    }
    this.installCameraDrag();
    this.installPullToRefresh();
    window.addEventListener('hashchange', () => this.route());
    if ('serviceWorker' in navigator) {
      navigator.serviceWorker.register('/sw.js').catch(() => {});
      // The first time the worker takes over, load again so that what is shown is also kept.
      navigator.serviceWorker.addEventListener('controllerchange', () => { if (this.active) this.reload(); });
    }
  }

  // ----- routing -----

  /** Shows the grid or the plans from location.hash: #plans, #plans/{planID}. */
  route() {
    const match = /^#plans(?:\/([0-9A-Fa-f-]{36}))?/.exec(location.hash);
    const active = Boolean(match);
    document.documentElement.dataset.view = active ? 'plans' : 'grid';
    for (const link of document.querySelectorAll('[data-view-link]')) {
      const current = link.dataset.viewLink === (active ? 'plans' : 'grid');
      if (current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    this.root.hidden = !active;
    this.app.suspendGrid?.(active);
    const wasActive = this.active;
    this.active = active;
    if (!active) {
      this.closeLive();
      return;
    }
    const planID = match[1] ? normalizeID(match[1]) : null;
    this.root.classList.toggle('has-plan', Boolean(planID));
    if (!wasActive) this.loadSites();
    if (planID) {
      if (this.current?.plan.id !== planID) this.openPlan(planID);
    } else {
      this.current = null;
      this.hideInfo();
      this.renderPlan();
    }
  }

  get isAdmin() {
    // No accounts yet: editing is offered where the screen is wide and not a touch screen.
    return matchMedia('(min-width: 900px) and (not (pointer: coarse))').matches;
  }

  // ----- data -----

  async loadSites() {
    const cameras = this.loadCameras();
    if (!this.app.cameras().length) await cameras;
    try {
      const { data, offline, cachedAt } = await request('GET', '/api/sites');
      this.sites = data.map((site) => ({ ...site, id: normalizeID(site.id), plans: site.plans.map((plan) => this.normalizePlan(plan)) }));
      if (!this.current) this.setOffline(offline ? cachedAt : null);
      this.listError = null;
    } catch (error) {
      this.listError = error.message;
    }
    this.renderList();
    this.renderPlan();
  }

  normalizePlan(plan) {
    return { ...plan, id: normalizeID(plan.id), siteID: normalizeID(plan.siteID), cameraIDs: (plan.cameraIDs || []).map(normalizeID) };
  }

  async openPlan(planID) {
    this.hideInfo();
    this.planError = null;
    this.opening = planID;
    try {
      const { data, offline, cachedAt } = await request('GET', `/api/plans/${planID}`);
      if (this.opening !== planID) return; // another plan was asked for meanwhile
      this.setCurrent(data);
      this.setOffline(offline ? cachedAt : null);
    } catch (error) {
      if (this.opening !== planID) return;
      this.current = null;
      this.planError = error.message;
    }
    this.renderPlan();
    this.renderList();
  }

  setCurrent(data) {
    const placements = data.placements.map((p) => ({ ...p, id: normalizeID(p.id), cameraID: normalizeID(p.cameraID), planID: normalizeID(p.planID) }));
    this.current = { plan: this.normalizePlan(data.plan), siteName: data.siteName, placements };
  }

  /** Loads again what is on screen (the refresh button, pull-to-refresh, a `plans` event). */
  async reload() {
    const planID = this.current?.plan.id;
    await this.loadSites();
    if (planID && this.current?.plan.id === planID) {
      try {
        const edits = this.edits;
        const { data, offline, cachedAt } = await request('GET', `/api/plans/${planID}`);
        if (this.current?.plan.id !== planID) return; // another plan was opened meanwhile
        if (this.stage.gesture?.dragging || this.stage.gesture?.kind === 'handle') return; // not under a finger
        if (edits !== this.edits || this.saves?.size) {
          // Asked for before a local change, or a change is still on its way: this answer would undo it on
          // screen (and the next drag would save the undone values). Ask again once the saves are done.
          if (this.saves?.size) this.staleReload = true; // asked for again when they are done
          else this.onChange({});
          return;
        }
        this.setCurrent(data);
        this.setOffline(offline ? cachedAt : null);
        this.renderPlan();
      } catch (error) {
        if (/no floor plan/.test(error.message)) {
          this.app.toast?.('This floor plan was deleted.', 'warn');
          location.hash = '#plans';
        }
      }
    }
  }

  /** A `plans` server-sent event: another viewer (or this one) changed something. */
  onChange(change) {
    if (!this.active) return;
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => this.reload(), 120);
  }

  /** The camera list changed (names, added, deleted). */
  setCameras() {
    if (!this.active) return;
    this.stage.setNames(this.cameraNames());
    this.refreshStates();
    this.renderEditorCameras();
    this.renderList();
    if (this.infoFor) this.renderInfo();
    // A deleted camera's placements went with it.
    const known = new Set(this.app.cameras().map((camera) => camera.id));
    if (this.app.cameras().length && this.current?.placements.some((p) => !known.has(p.cameraID))) this.onChange({});
  }

  setStatus(id, status) {
    this.statuses.set(id, status);
    this.stage.setState(id, this.stateOf(id), this.labelOf(id));
    if (this.infoFor === id) this.renderInfo();
    if (this.live?.id === id) this.renderLive();
  }

  setConnected(connected) {
    this.connected = connected;
    if (connected && this.offline && this.active) this.reload();
  }

  camera(id) {
    return this.app.cameras().find((camera) => camera.id === id) || this.keptCameras.find((camera) => camera.id === id) || null;
  }

  /** The cameras as the plans view last fetched them itself: kept by the service worker, so that names
   *  still show offline when the app's own camera list could not load. */
  async loadCameras() {
    try {
      const { data } = await request('GET', '/api/cameras');
      this.keptCameras = data.map((camera) => ({ ...camera, id: normalizeID(camera.id) }));
    } catch {
      // Offline and never kept: markers show without names.
    }
  }

  /** The marker's state, as the hub reports it (the hub decides when an outage counts as failed). */
  stateOf(id) {
    return markerState(this.camera(id), this.statusOf(id));
  }

  /** "Standby · OK" for a camera nobody watches whose last health check passed; null: the state's label. */
  labelOf(id) {
    const status = this.statusOf(id);
    return this.stateOf(id) === 'idle' && status?.reachable ? 'Standby · OK' : null;
  }

  statusOf(id) {
    return this.statuses.get(id) || this.camera(id)?.status || null;
  }

  cameraNames() {
    const cameras = this.app.cameras().length ? this.app.cameras() : this.keptCameras;
    return new Map(cameras.map((camera) => [camera.id, camera.name]));
  }

  refreshStates() {
    for (const p of this.current?.placements || []) this.stage.setState(p.cameraID, this.stateOf(p.cameraID), this.labelOf(p.cameraID));
    if (this.infoFor) {
      const shown = this.root.querySelector('.plan-info')?.dataset.state;
      if (shown && shown !== this.stateOf(this.infoFor)) this.renderInfo();
    }
  }

  setOffline(cachedAt) {
    this.offline = cachedAt;
    const chip = this.root.querySelector('.plan-offline');
    chip.hidden = !cachedAt;
    chip.textContent = cachedAt ? `Offline — last updated at ${timeText(cachedAt)}` : '';
    this.root.classList.toggle('is-offline', Boolean(cachedAt));
  }

  // ----- rendering -----

  renderList() {
    const names = this.cameraNames();
    const q = this.query;
    const parts = [];
    for (const site of this.sites) {
      const siteHit = !q || site.name.toLowerCase().includes(q) || site.address.toLowerCase().includes(q);
      const plans = [];
      for (const plan of site.plans) {
        const cameras = plan.cameraIDs.map((id) => ({ id, name: names.get(id) || '' }));
        const matched = q ? cameras.filter((camera) => camera.name.toLowerCase().includes(q)) : [];
        if (!siteHit && !plan.name.toLowerCase().includes(q) && !matched.length) continue;
        const current = this.current?.plan.id === plan.id;
        plans.push(`
          <a class="plan-link${current ? ' current' : ''}" role="listitem" href="#plans/${plan.id}" data-plan-id="${plan.id}" ${current ? 'aria-current="page"' : ''}>
            <span class="plan-thumb">${plan.imageURL ? `<img src="${escapeHTML(plan.imageURL)}" alt="" loading="lazy">` : icon('film')}</span>
            <span class="plan-link-text"><strong>${escapeHTML(plan.name)}</strong>
              <small>${escapeHTML(floorName(plan.floorLevel))} · ${plan.cameraIDs.length} ${plan.cameraIDs.length === 1 ? 'camera' : 'cameras'}</small>
              ${matched.map((camera) => `<span class="plan-hit" data-camera-id="${camera.id}">${icon('camera')}${escapeHTML(camera.name)}</span>`).join('')}
            </span>
          </a>`);
      }
      if (!plans.length && q && !siteHit) continue;
      parts.push(`
        <section class="site" data-site-id="${site.id}">
          <header class="site-head">
            <div><h2>${escapeHTML(site.name)}</h2>${site.address ? `<p>${escapeHTML(site.address)}</p>` : ''}</div>
            <div class="site-actions admin-only">
              <button type="button" class="icon-btn" data-plans-action="edit-site" data-site-id="${site.id}" aria-label="Edit site ${escapeHTML(site.name)}" title="Rename or delete">${icon('edit')}</button>
              <button type="button" class="icon-btn" data-plans-action="new-plan" data-site-id="${site.id}" aria-label="Add a floor plan to ${escapeHTML(site.name)}" title="Add a floor plan" ${site.plans.length >= 10 ? 'disabled' : ''}>${icon('plus')}</button>
            </div>
          </header>
          ${plans.join('') || '<p class="site-empty">No floor plans yet.</p>'}
        </section>`);
    }
    let html;
    if (this.listError && !this.sites.length) {
      html = `<div class="plans-note bad">${icon('unplug')}<p>${escapeHTML(this.listError)}</p><button type="button" class="btn btn-secondary" data-plans-action="refresh">${icon('refresh')}Try again</button></div>`;
    } else if (!this.sites.length) {
      html = `<div class="plans-note">${icon('sparkle')}<p><strong>No sites yet.</strong> A site holds up to ten floor plans; put your cameras on them to see every one in place.</p>
        <button type="button" class="btn btn-primary admin-only" data-plans-action="new-site">${icon('plus')}New site</button></div>`;
    } else {
      html = parts.join('') || `<p class="plans-none">Nothing matches “${escapeHTML(this.search.value)}”.</p>`;
    }
    if (html !== this.listHTML) {
      this.listHTML = html;
      this.list.innerHTML = html;
    }
  }

  renderPlan() {
    const pane = this.root.querySelector('.plan-pane');
    const empty = this.root.querySelector('.plan-empty');
    const body = this.root.querySelector('.plan-body');
    const head = this.root.querySelector('.plan-head');
    if (!this.current) {
      body.hidden = true;
      head.hidden = true;
      empty.hidden = false;
      empty.innerHTML = this.planError
        ? `${icon('unplug')}<h2>Can’t open this plan</h2><p>${escapeHTML(this.planError)}</p>`
        : `${icon('film')}<h2>Choose a floor plan</h2><p>Tap a marker to see the camera; press and hold it to watch live.</p>`;
      pane.dataset.planId = '';
      return;
    }
    const { plan, siteName, placements } = this.current;
    body.hidden = false;
    head.hidden = false;
    empty.hidden = true;
    pane.dataset.planId = plan.id;
    this.root.querySelector('.plan-site').textContent = siteName;
    this.root.querySelector('.plan-name').textContent = plan.name;
    const site = this.sites.find((item) => item.id === plan.siteID);
    const floors = site?.plans || [plan];
    this.root.querySelector('.plan-floors').innerHTML = floors.length > 1 ? floors.map((item) => `
      <a role="tab" href="#plans/${item.id}" class="floor${item.id === plan.id ? ' current' : ''}" aria-selected="${item.id === plan.id}">${escapeHTML(item.name)}</a>`).join('') : '';
    this.stage.setNames(this.cameraNames());
    for (const p of placements) this.stage.states.set(p.cameraID, this.stateOf(p.cameraID));
    this.stage.setPlan(plan, placements);
    this.stage.root.dataset.noImageText = plan.imageURL ? '' : 'No picture yet: use “Plan” to upload one (JPEG, PNG or SVG).';
    this.renderEditorCameras();
    if (this.stage.selected) this.showSelected(placements.find((p) => p.id === this.stage.selected));
    if (this.infoFor) this.renderInfo();
  }

  // ----- info panel and live view -----

  showInfo(placement) {
    if (!placement) return;
    this.infoFor = placement.cameraID;
    this.snapshotAt = Date.now();
    this.renderInfo();
  }

  hideInfo() {
    this.infoFor = null;
    const panel = this.root.querySelector('.plan-info');
    panel.hidden = true;
    panel.innerHTML = '';
  }

  renderInfo() {
    const panel = this.root.querySelector('.plan-info');
    const id = this.infoFor;
    const camera = this.camera(id);
    if (!camera) return this.hideInfo();
    const status = this.statusOf(id);
    const state = this.stateOf(id);
    const model = [camera.manufacturer, camera.model].filter(Boolean).join(' ') || 'Model not known';
    const lastSeen = state === 'live' ? 'Now' : ago(camera.lastConnectedAt || status?.lastFrameAt);
    const snapshot = `/api/cameras/${camera.id}/snapshot.jpg?t=${this.snapshotAt}`;
    const existing = panel.querySelector('.plan-info-snapshot img');
    panel.hidden = false;
    panel.dataset.cameraId = id;
    panel.dataset.state = state;
    panel.innerHTML = `
      <div class="plan-info-snapshot"><span class="spinner small"></span></div>
      <div class="plan-info-body">
        <header><span class="dot" data-state="${state}"></span><h3>${escapeHTML(camera.name)}</h3>
          <button type="button" class="icon-btn" data-plans-action="close-info" aria-label="Close">${icon('close')}</button></header>
        <dl>
          <div><dt>Model</dt><dd class="info-model">${escapeHTML(model)}</dd></div>
          <div><dt>State</dt><dd class="info-state" data-state="${state}">${escapeHTML(stateLabels[state])}${state === 'idle' && status?.reachable ? ` · OK${status.checkedAt ? ` (checked ${escapeHTML(timeText(new Date(status.checkedAt)))})` : ''}` : ''}${status?.message && (state === 'failed' || state === 'reconnecting') ? ` — ${escapeHTML(status.message)}` : ''}</dd></div>
          <div><dt>Last seen</dt><dd class="info-seen">${escapeHTML(lastSeen)}</dd></div>
        </dl>
        <p class="plan-info-hint">${icon('info')}Press and hold a marker (or double-click it) to watch live.</p>
        <div class="plan-info-actions">
          <button type="button" class="btn btn-primary" data-plans-action="watch" data-camera-id="${id}">${icon('expand')}Watch live</button>
        </div>
      </div>`;
    const holder = panel.querySelector('.plan-info-snapshot');
    const img = existing || new Image();
    if (!existing) {
      img.alt = `Snapshot of ${camera.name}`;
      img.onload = () => holder.querySelector('.spinner')?.remove();
      img.onerror = () => {
        holder.querySelector('.spinner')?.remove();
        if (camera.thumbnailURL && !img.src.includes('thumbnail')) img.src = camera.thumbnailURL;
        else holder.classList.add('none');
      };
      img.src = snapshot;
    } else {
      holder.querySelector('.spinner')?.remove();
    }
    holder.append(img);
  }

  openLive(cameraID) {
    const camera = this.camera(cameraID);
    if (!camera) return;
    this.closeLive();
    const video = this.liveDialog.querySelector('video');
    this.live = { id: cameraID };
    this.live.player = new LivePlayer(video, {
      url: liveURL(cameraID),
      onState: () => this.renderLive(),
      onStatus: (status) => { this.statuses.set(cameraID, status); this.renderLive(); },
      onInit: () => this.renderLive(),
    });
    if (camera.isActive !== false) this.live.player.start();
    this.renderLive();
    if (!this.liveDialog.open) this.liveDialog.showModal();
  }

  renderLive() {
    if (!this.live) return;
    const camera = this.camera(this.live.id);
    const view = describe(camera, this.statusOf(this.live.id), this.live.player);
    this.liveDialog.dataset.state = view.key;
    this.liveDialog.dataset.tone = view.tone;
    this.liveDialog.dataset.cameraId = this.live.id;
    this.liveDialog.querySelector('.plan-live-name').textContent = camera?.name || 'Camera';
    this.liveDialog.querySelector('.plan-live-state').textContent = view.title || view.label;
  }

  closeLive() {
    if (!this.live) return;
    this.live.player?.destroy();
    this.live = null;
    const video = this.liveDialog.querySelector('video');
    video.removeAttribute('src');
    if (this.liveDialog.open) this.liveDialog.close();
  }

  // ----- editing -----

  toggleEditing(force) {
    this.editing = force ?? !this.editing;
    this.root.classList.toggle('editing', this.editing);
    const toggle = this.root.querySelector('.plan-edit-toggle');
    toggle.setAttribute('aria-pressed', String(this.editing));
    toggle.querySelector('span').textContent = this.editing ? 'Done' : 'Edit';
    this.root.querySelector('.plan-editor').hidden = !this.editing;
    this.stage.setEditing(this.editing);
    this.selectPlacement(null);
    this.renderEditorCameras();
    requestAnimationFrame(() => this.stage.fitToView());
  }

  renderEditorCameras() {
    const holder = this.root.querySelector('.plan-camera-list');
    if (!this.editing || !this.current) return;
    const placed = new Set(this.current.placements.map((p) => p.cameraID));
    const html = (this.app.cameras().length ? this.app.cameras() : this.keptCameras).map((camera) => `
      <div class="plan-camera" role="listitem" data-camera-id="${camera.id}" ${placed.has(camera.id) ? 'data-placed="true"' : ''}>
        <span class="dot" data-state="${this.stateOf(camera.id)}"></span>
        <span class="plan-camera-name">${escapeHTML(camera.name)}</span>
        <span class="plan-camera-note">${placed.has(camera.id) ? 'On this plan' : 'Drag onto the plan'}</span>
      </div>`).join('') || '<p class="plans-none">No cameras yet: add them in Cameras.</p>';
    // Unchanged: keep the elements (one may be under a finger).
    if (html !== this.editorHTML) {
      this.editorHTML = html;
      holder.innerHTML = html;
    }
  }

  installCameraDrag() {
    const holder = this.root.querySelector('.plan-camera-list');
    holder.addEventListener('pointerdown', (event) => {
      const item = event.target.closest('.plan-camera:not([data-placed])');
      if (!item || !this.editing) return;
      event.preventDefault();
      const ghost = item.cloneNode(true);
      ghost.classList.add('plan-camera-ghost');
      document.body.append(ghost);
      const move = (e) => { ghost.style.transform = `translate(${e.clientX + 8}px, ${e.clientY + 8}px)`; };
      move(event);
      item.setPointerCapture(event.pointerId);
      const up = (e) => {
        item.removeEventListener('pointermove', move);
        item.removeEventListener('pointerup', up);
        item.removeEventListener('pointercancel', up);
        ghost.remove();
        if (e.type === 'pointerup' && this.stage.contains(e.clientX, e.clientY)) {
          const [x, y] = this.stage.toPlan(e.clientX, e.clientY);
          if (x >= 0 && x <= 1 && y >= 0 && y <= 1) this.place(item.dataset.cameraId, x, y);
        }
      };
      item.addEventListener('pointermove', move);
      item.addEventListener('pointerup', up);
      item.addEventListener('pointercancel', up);
    });
  }

  async place(cameraID, x, y) {
    const plan = this.current?.plan;
    if (!plan) return;
    try {
      const { data } = await request('POST', `/api/plans/${plan.id}/placements`, {
        cameraID, x: Math.round(x * 100000) / 100000, y: Math.round(y * 100000) / 100000, direction: 0, fieldOfView: 90, range: 0.12,
      });
      const placement = { ...data, id: normalizeID(data.id), cameraID: normalizeID(data.cameraID), planID: normalizeID(data.planID) };
      this.edits += 1;
      this.current.placements.push(placement);
      this.stage.setPlacements(this.current.placements);
      this.stage.select(placement.id);
      this.selectPlacement(this.current.placements.at(-1));
      this.renderEditorCameras();
    } catch (error) {
      this.app.toast?.(error.message, 'bad');
    }
  }

  selectPlacement(placement) {
    const panel = this.root.querySelector('.plan-selected');
    this.selectedID = placement?.id ?? null;
    panel.hidden = !placement;
    if (placement) this.showSelected(placement, true);
  }

  /** The sliders follow the selected placement; `force` also moves a focused slider (another camera chosen). */
  showSelected(placement, force = false) {
    if (!placement || placement.id !== this.selectedID) return;
    const panel = this.root.querySelector('.plan-selected');
    panel.querySelector('.plan-selected-name').textContent = this.camera(placement.cameraID)?.name || 'Camera';
    const values = { direction: Math.round(placement.direction), fieldOfView: Math.round(placement.fieldOfView), range: Math.round(placement.range * 100) };
    for (const [name, value] of Object.entries(values)) {
      const input = panel.querySelector(`input[name="${name}"]`);
      if (force || document.activeElement !== input) input.value = value;
      panel.querySelector(`[data-out="${name}"]`).textContent = value;
    }
  }

  sliderChanged(input, save) {
    const placement = this.current?.placements.find((p) => p.id === this.selectedID);
    if (!placement) return;
    const value = Number(input.value);
    const fields = {};
    if (input.name === 'range') fields.range = value / 100;
    else fields[input.name] = value;
    this.edits += 1;
    Object.assign(placement, fields);
    this.stage.renderPlacement(placement);
    this.root.querySelector(`[data-out="${input.name}"]`).textContent = input.value;
    if (save) this.savePlacement(placement, fields);
  }

  /** Saves changes one request at a time per placement, merging those that pile up meanwhile, so that an
   *  older change can never land after a newer one (a slider sends many). */
  savePlacement(placement, fields) {
    this.edits += 1;
    this.saves ??= new Map();
    const entry = this.saves.get(placement.id);
    if (entry) {
      entry.pending = { ...entry.pending, ...fields };
      return entry.done;
    }
    const next = { pending: null };
    this.saves.set(placement.id, next);
    next.done = (async () => {
      let body = fields;
      while (body) {
        try {
          await request('PATCH', `/api/placements/${placement.id}`, body);
        } catch (error) {
          this.app.toast?.(`Couldn’t save the camera’s place: ${error.message}`, 'bad');
          this.saves.delete(placement.id);
          this.reload();
          return;
        }
        body = next.pending;
        next.pending = null;
      }
      this.saves.delete(placement.id);
      if (this.staleReload && !this.saves.size) {
        this.staleReload = false;
        this.onChange({});
      }
    })();
    return next.done;
  }

  async removeSelected() {
    const id = this.selectedID;
    if (!id) return;
    try {
      await request('DELETE', `/api/placements/${id}`);
      this.edits += 1;
      this.current.placements = this.current.placements.filter((p) => p.id !== id);
      this.stage.setPlacements(this.current.placements);
      this.selectPlacement(null);
      this.renderEditorCameras();
    } catch (error) {
      this.app.toast?.(error.message, 'bad');
    }
  }

  // ----- site and plan forms -----

  /** Shows the form dialog; resolves with the FormData when saved (after `save` accepted it), or null. */
  form(title, fieldsHTML, save, { danger = null } = {}) {
    const form = this.dialog.querySelector('form');
    form.innerHTML = `
      <header class="dialog-head"><h2 tabindex="-1">${escapeHTML(title)}</h2>
        <button type="button" class="icon-btn" value="cancel" data-form-action="cancel" aria-label="Close">${icon('close')}</button></header>
      <div class="dialog-body plans-form">${fieldsHTML}<p class="form-error" role="alert" hidden></p></div>
      <footer class="dialog-foot">
        ${danger ? `<button type="button" class="btn btn-danger-quiet" data-form-action="delete">${icon('trash')}${escapeHTML(danger.label)}</button>` : ''}
        <span class="spacer"></span>
        <button type="button" class="btn btn-secondary" data-form-action="cancel">Cancel</button>
        <button type="submit" class="btn btn-primary" data-form-action="save">Save</button>
      </footer>`;
    const showError = (error) => {
      for (const el of form.querySelectorAll('[data-error-for]')) el.hidden = true;
      const target = error.field && form.querySelector(`[data-error-for="${error.field}"]`);
      const box = target || form.querySelector('.form-error');
      box.textContent = error.message;
      box.hidden = false;
    };
    return new Promise((resolve) => {
      form.onsubmit = async (event) => {
        event.preventDefault();
        const button = form.querySelector('[data-form-action="save"]');
        button.disabled = true;
        try {
          await save(new FormData(form));
          this.dialog.close();
          resolve(true);
        } catch (error) {
          showError(error);
        } finally {
          button.disabled = false;
        }
      };
      form.onclick = async (event) => {
        const action = event.target.closest('[data-form-action]')?.dataset.formAction;
        if (action === 'cancel') {
          this.dialog.close();
          resolve(false);
        } else if (action === 'delete' && danger) {
          if (!confirm(danger.confirm)) return;
          try {
            await danger.run();
            this.dialog.close();
            resolve(true);
          } catch (error) {
            showError(error);
          }
        }
      };
      this.dialog.showModal();
      form.querySelector('input')?.focus();
    });
  }

  field(name, label, value = '', { type = 'text', hint = '', attrs = '' } = {}) {
    return `<div class="field"><label for="plans-${name}">${escapeHTML(label)}</label>
      <input id="plans-${name}" name="${name}" type="${type}" value="${escapeHTML(value)}" ${attrs}>
      <p class="field-error" data-error-for="${name}" hidden></p>${hint ? `<p class="field-hint">${escapeHTML(hint)}</p>` : ''}</div>`;
  }

  editSite(site) {
    const fields = this.field('name', 'Name', site?.name, { attrs: 'maxlength="100" placeholder="Building B" autocomplete="off"' }) +
      this.field('address', 'Address', site?.address, { attrs: 'maxlength="300" placeholder="12 Harbour Road" autocomplete="off"', hint: 'Optional.' });
    return this.form(site ? 'Edit site' : 'New site', fields, async (data) => {
      const body = { name: data.get('name'), address: data.get('address') };
      if (site) await request('PATCH', `/api/sites/${site.id}`, body);
      else await request('POST', '/api/sites', body);
      await this.loadSites();
    }, site ? { danger: { label: 'Delete site', confirm: `Delete “${site.name}” with its floor plans?`,
      run: async () => { await request('DELETE', `/api/sites/${site.id}`); location.hash = '#plans'; await this.loadSites(); } } } : {});
  }

  editPlan(siteID, plan) {
    const fields = this.field('name', 'Name', plan?.name, { attrs: 'maxlength="100" placeholder="Ground floor" autocomplete="off"' }) +
      this.field('floorLevel', 'Floor', plan?.floorLevel ?? 0, { type: 'number', attrs: 'min="-20" max="200" step="1"', hint: '0 is the ground floor, −1 the first basement.' }) +
      this.field('image', plan?.imageURL ? 'Replace the picture' : 'Picture', '', { type: 'file', attrs: 'accept="image/png,image/jpeg,image/svg+xml,.svg"', hint: 'JPEG, PNG or SVG, up to 10 MB.' });
    return this.form(plan ? 'Floor plan' : 'New floor plan', fields, async (data) => {
      const body = { name: data.get('name'), floorLevel: Number(data.get('floorLevel') || 0) };
      let planID = plan?.id;
      if (plan) await request('PATCH', `/api/plans/${plan.id}`, body);
      else planID = normalizeID((await request('POST', `/api/sites/${siteID}/plans`, body)).data.plan.id);
      const file = data.get('image');
      if (file && file.size) {
        try {
          const { data: result } = await request('PUT', `/api/plans/${planID}/image`, file, { raw: true });
          if (result.removedFromImage?.length) this.app.toast?.(`The SVG was cleaned: removed ${result.removedFromImage.join(', ')}.`);
        } catch (error) {
          if (!plan) location.hash = `#plans/${planID}`; // the plan exists; the picture can be given again
          throw error;
        }
      }
      await this.loadSites();
      if (location.hash !== `#plans/${planID}`) location.hash = `#plans/${planID}`;
      else await this.openPlan(planID);
    }, plan ? { danger: { label: 'Delete plan', confirm: `Delete the floor plan “${plan.name}”?`,
      run: async () => { await request('DELETE', `/api/plans/${plan.id}`); location.hash = '#plans'; await this.loadSites(); } } } : {});
  }

  // ----- events -----

  click(event) {
    const button = event.target.closest('[data-plans-action]');
    if (!button) return;
    const action = button.dataset.plansAction;
    const site = this.sites.find((item) => item.id === button.dataset.siteId);
    if (action === 'new-site') this.editSite(null);
    else if (action === 'edit-site' && site) this.editSite(site);
    else if (action === 'new-plan' && site) this.editPlan(site.id, null);
    else if (action === 'plan-settings' && this.current) this.editPlan(this.current.plan.siteID, this.current.plan);
    else if (action === 'edit') this.toggleEditing();
    else if (action === 'refresh') this.refreshWithFeedback(button);
    else if (action === 'back') location.hash = '#plans';
    else if (action === 'close-info') this.hideInfo();
    else if (action === 'watch') this.openLive(button.dataset.cameraId);
    else if (action === 'remove-placement') this.removeSelected();
  }

  async refreshWithFeedback(button) {
    button?.classList.add('spinning');
    await this.reload();
    button?.classList.remove('spinning');
  }

  /** Pull the list down past 70 px on a touch screen to load it again. */
  installPullToRefresh() {
    const scroller = this.root.querySelector('.plans-sidebar');
    const indicator = this.root.querySelector('.plans-pull');
    let start = null;
    scroller.addEventListener('touchstart', (event) => {
      start = scroller.scrollTop <= 0 ? event.touches[0].clientY : null;
    }, { passive: true });
    scroller.addEventListener('touchmove', (event) => {
      if (start === null) return;
      const pulled = Math.max(0, Math.min(120, event.touches[0].clientY - start));
      indicator.style.height = `${pulled / 2}px`;
      indicator.classList.toggle('armed', pulled > 70);
    }, { passive: true });
    scroller.addEventListener('touchend', async () => {
      if (start === null) return;
      start = null;
      const armed = indicator.classList.contains('armed');
      indicator.classList.remove('armed');
      if (armed) {
        indicator.classList.add('loading');
        await this.reload();
        indicator.classList.remove('loading');
      }
      indicator.style.height = '';
    });
  }
}
