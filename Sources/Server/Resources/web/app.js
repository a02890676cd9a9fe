// WatchBox web app: loads the cameras, keeps their status live from server-sent events, and wires
// the grid, the full-screen view, the dialogs, the theme and the keyboard together.

import { api, EventFeed } from './api.js';
import { CameraDialog, closeMenu, confirmAction, menuIsOpen, openMenu, showDialog, toast } from './dialogs.js';
import { Grid } from './grid.js';
import { hydrateIcons } from './icons.js';
import { mediaSourceAvailable } from './player.js';
import { PlansView } from './plans.js';
import { Viewer } from './viewer.js';
import { DiscoveryDialog } from './discovery.js';
import { LibraryView } from './library.js';
import { RecordingControls } from './recording.js';
import { StorageView } from './storage.js';

const $ = (selector) => document.querySelector(selector);

const store = {
  cameras: [],
  loaded: false,
};

// ----- theme -----

const themeKey = 'watchbox.theme';
const systemDark = matchMedia('(prefers-color-scheme: dark)');

function effectiveTheme() {
  return document.documentElement.dataset.theme || (systemDark.matches ? 'dark' : 'light');
}

/** Switches light/dark; a choice equal to the system's is forgotten, so the app follows the system again. */
function toggleTheme() {
  const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
  const system = systemDark.matches ? 'dark' : 'light';
  try {
    if (next === system) localStorage.removeItem(themeKey);
    else localStorage.setItem(themeKey, next);
  } catch {
    // private mode: the choice lasts for this page only
  }
  if (next === system) delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = next;
  updateThemeButton();
}

function updateThemeButton() {
  const dark = effectiveTheme() === 'dark';
  const button = $('#theme-toggle');
  button.setAttribute('aria-label', dark ? 'Switch to light mode (T)' : 'Switch to dark mode (T)');
  button.title = dark ? 'Light mode (T)' : 'Dark mode (T)';
  button.dataset.mode = dark ? 'dark' : 'light';
  document.querySelector('meta[name="theme-color"]').content = dark ? '#0c0e12' : '#f5f6f8';
}

// ----- the pieces -----

const grid = new Grid($('#grid'), {
  onOpen: (id) => openViewer(id),
  onMenu: (id, anchor) => showCameraMenu(id, anchor),
  onReorder: (ids) => saveOrder(ids),
  onAction: (id, action) => runAction(id, action),
  onStatusChange: () => updateSummary(),
});

const viewer = new Viewer($('#viewer'), {
  onClose: () => closeViewer(),
  onStep: (delta) => stepViewer(delta),
  onAction: (id, action) => runAction(id, action),
});

const cameraDialog = new CameraDialog($('#camera-dialog'), {
  onSaved: (camera, isNew) => {
    upsert(camera);
    toast(isNew ? `Added “${camera.name}”` : `Saved “${camera.name}”`, 'good');
    if (isNew) requestAnimationFrame(() => grid.focus(camera.id));
  },
  onDelete: (camera) => deleteCamera(camera),
  onOpen: (camera) => recording.open(camera),
  beforeClose: (camera) => recording.save(camera),
});

const discoveryDialog = new DiscoveryDialog({ onAdded: () => refresh(), confirmDialog: $('#confirm-dialog') });

const cameraByID = (id) => store.cameras.find((camera) => camera.id === id);

// ----- data -----

let refreshTimer = 0;
let refreshing = null;

async function refresh() {
  if (refreshing) return refreshing;
  refreshing = (async () => {
    try {
      const cameras = await api.cameras();
      store.cameras = cameras;
      store.loaded = true;
      render();
      recording.refresh(cameras);
    } catch (error) {
      if (!store.loaded) showLoadError(error);
      else toast(error.message, 'bad');
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 120);
}

function upsert(camera) {
  const index = store.cameras.findIndex((item) => item.id === camera.id);
  if (index >= 0) store.cameras[index] = camera;
  else store.cameras.push(camera);
  render();
}

function render() {
  const empty = store.loaded && store.cameras.length === 0;
  $('#loading').hidden = true;
  $('#load-error').hidden = true;
  $('#empty').hidden = !empty;
  $('#grid').hidden = empty;
  document.documentElement.classList.toggle('has-cameras', store.cameras.length > 0);
  grid.setCameras(store.cameras);
  plans.setCameras();
  library.setCameras();
  if (viewer.isOpen) {
    const camera = cameraByID(viewer.camera.id);
    if (camera) viewer.update(camera);
    else closeViewer();
  }
  updateSummary();
}

function updateSummary() {
  const total = store.cameras.length;
  const live = [...grid.cells.values()].filter((cell) => cell.view?.key === 'live').length;
  const failing = [...grid.cells.values()].filter((cell) => cell.view && ['bad', 'warn'].includes(cell.view.tone)).length;
  const summary = $('#summary');
  if (!total) {
    summary.textContent = '';
    return;
  }
  const parts = [`${total} ${total === 1 ? 'camera' : 'cameras'}`];
  if (live) parts.push(`${live} live`);
  if (failing) parts.push(`${failing} need${failing === 1 ? 's' : ''} attention`);
  summary.textContent = parts.join(' · ');
  summary.dataset.tone = failing ? 'warn' : 'ok';
}

function showLoadError(error) {
  $('#loading').hidden = true;
  const panel = $('#load-error');
  panel.hidden = false;
  panel.querySelector('.load-error-message').textContent = error.message;
}

async function saveOrder(ids) {
  if (!ids) {
    render();
    return;
  }
  const byID = new Map(store.cameras.map((camera) => [camera.id, camera]));
  store.cameras = ids.map((id) => byID.get(id)).filter(Boolean);
  try {
    await api.reorder(ids);
  } catch (error) {
    toast(`Couldn’t save the new order: ${error.message}`, 'bad');
    refresh();
  }
}

async function addDemo(button) {
  if (button) button.disabled = true;
  try {
    const camera = await api.addDemo();
    upsert(camera);
    toast(`Added “${camera.name}”`, 'good');
  } catch (error) {
    toast(error.message, 'bad');
  } finally {
    if (button) button.disabled = false;
  }
}

async function deleteCamera(camera) {
  const confirmed = await confirmAction($('#confirm-dialog'), {
    title: `Delete “${camera.name}”?`,
    message: 'WatchBox stops watching this camera and forgets its address and password. The camera itself is not changed.',
    confirm: 'Delete camera',
    danger: true,
  });
  if (!confirmed) return;
  try {
    await api.deleteCamera(camera.id);
    store.cameras = store.cameras.filter((item) => item.id !== camera.id);
    render();
    toast(`Deleted “${camera.name}”`);
  } catch (error) {
    toast(error.message, 'bad');
  }
}

async function setActive(camera, isActive) {
  try {
    upsert(await api.updateCamera(camera.id, { isActive }));
    toast(isActive ? `Turned on “${camera.name}”` : `Turned off “${camera.name}”`);
  } catch (error) {
    toast(error.message, 'bad');
  }
}

function runAction(id, action) {
  const camera = cameraByID(id);
  if (!camera) return;
  if (action === 'edit') cameraDialog.open(camera);
  else if (action === 'activate') setActive(camera, true);
  else if (action === 'deactivate') setActive(camera, false);
  else if (action === 'delete') deleteCamera(camera);
  else if (action === 'open') openViewer(id);
  else if (action === 'record') recording.toggle(viewer.root.querySelector('.rec-button'));
  else if (action === 'library') location.hash = `#library/${id}`;
}

async function showCameraMenu(id, anchor) {
  const camera = cameraByID(id);
  if (!camera) return;
  const action = await openMenu(anchor, [
    { label: 'Full screen', icon: 'expand', action: 'open', shortcut: 'F' },
    { label: 'Edit…', icon: 'edit', action: 'edit', shortcut: 'E' },
    camera.isActive === false
      ? { label: 'Turn on', icon: 'power', action: 'activate' }
      : { label: 'Turn off', icon: 'power', action: 'deactivate' },
    'separator',
    { label: 'Delete…', icon: 'trash', action: 'delete', danger: true, shortcut: '⌫' },
  ]);
  if (action) runAction(id, action);
  else if (document.activeElement === document.body) grid.focus(id);
}

// ----- full-screen view -----

function openViewer(id, { push = true } = {}) {
  const camera = cameraByID(id);
  if (!camera) return;
  closeMenu();
  const cell = grid.cell(id);
  viewer.open(camera, cell?.status ?? camera.status, store.cameras.length);
  grid.setSuspended(true);
  recording.renderViewer();
  const hash = `#camera/${id}`;
  if (push && location.hash !== hash) {
    if (viewerPushed) {
      history.replaceState({ viewer: id }, '', hash);
    } else {
      history.pushState({ viewer: id }, '', hash);
      viewerPushed = true;
    }
  }
}

/** Whether opening the view added a history entry (so Back, or closing, removes it). */
let viewerPushed = false;

function closeViewer({ fromHistory = false } = {}) {
  if (!viewer.isOpen) return;
  const id = viewer.camera?.id;
  viewer.close();
  grid.setSuspended(false);
  if (!fromHistory && viewerPushed) history.back();
  else if (!fromHistory && location.hash) history.replaceState(null, '', location.pathname + location.search);
  viewerPushed = false;
  if (id) grid.focus(id);
}

function stepViewer(delta) {
  if (!viewer.isOpen || store.cameras.length < 2) return;
  const index = store.cameras.findIndex((camera) => camera.id === viewer.camera.id);
  const next = store.cameras[(index + delta + store.cameras.length) % store.cameras.length];
  openViewer(next.id);
}

window.addEventListener('popstate', () => {
  const match = /^#camera\/(.+)$/.exec(location.hash);
  if (match && cameraByID(match[1].toUpperCase())) openViewer(match[1].toUpperCase(), { push: false });
  else {
    viewerPushed = false;
    closeViewer({ fromHistory: true });
  }
});

// ----- keyboard -----

function showShortcuts() {
  if (!$('#shortcuts-dialog').open) showDialog($('#shortcuts-dialog'));
}

function anyDialogOpen() {
  return [...document.querySelectorAll('dialog')].some((dialog) => dialog.open);
}

document.addEventListener('keydown', (event) => {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  if (anyDialogOpen() || menuIsOpen()) return;
  const view = document.documentElement.dataset.view;
  if (view && view !== 'grid' && event.key !== 't' && event.key !== '?') return;
  const typing = event.target.closest?.('input, textarea, select, [contenteditable="true"]');
  if (typing) return;
  const key = event.key;
  // Enter and Space on a button belong to the button.
  if ((key === 'Enter' || key === ' ') && event.target.closest?.('button, a, summary')) return;

  if (viewer.isOpen) {
    if (key === 'Escape') closeViewer();
    else if (key === 'ArrowLeft') stepViewer(-1);
    else if (key === 'ArrowRight') stepViewer(1);
    else if (key === 'f' || key === 'F') viewer.toggleFullscreen();
    else if (key === 'e') runAction(viewer.camera.id, 'edit');
    else if (key === 'r') runAction(viewer.camera.id, 'record');
    else if (key === 'l') runAction(viewer.camera.id, 'library');
    else if (key === '?') showShortcuts();
    else return;
    event.preventDefault();
    return;
  }

  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const focused = grid.focusedID();
  if (arrows[key]) {
    const [dx, dy] = arrows[key];
    if (event.shiftKey && focused) grid.moveFocused(dx, dy);
    else grid.moveFocus(dx, dy);
  } else if (key === 'a' || key === 'n') {
    cameraDialog.open();
  } else if (key === 'f' || (key === 'Enter' && focused)) {
    const id = focused ?? store.cameras[0]?.id;
    if (id) openViewer(id);
  } else if (key === 'e' && focused) {
    runAction(focused, 'edit');
  } else if ((key === 'Delete' || key === 'Backspace') && focused) {
    runAction(focused, 'delete');
  } else if (key === 't') {
    toggleTheme();
  } else if (key === '?') {
    showShortcuts();
  } else if (key === 'd' && !store.cameras.length) {
    addDemo($('#empty [data-action="demo"]'));
  } else {
    return;
  }
  event.preventDefault();
});

// ----- buttons -----

document.addEventListener('click', (event) => {
  const button = event.target.closest('[data-app-action]');
  if (!button) return;
  const action = button.dataset.appAction;
  if (action === 'add') cameraDialog.open();
  else if (action === 'demo') addDemo(button);
  else if (action === 'discover') discoveryDialog.open();
  else if (action === 'theme') toggleTheme();
  else if (action === 'shortcuts') showShortcuts();
  else if (action === 'more') showMoreMenu(button);
  else if (action === 'retry') { $('#load-error').hidden = true; $('#loading').hidden = false; refresh(); }
});

for (const dialog of document.querySelectorAll('dialog.simple')) {
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close('cancel');
  });
}

document.addEventListener('visibilitychange', () => viewer.setHidden(document.hidden));

// ----- live status -----

let offlineTimer = 0;
let disconnected = false;

function setConnected(connected) {
  if (connected) {
    clearTimeout(offlineTimer);
    offlineTimer = 0;
    $('#offline').hidden = true;
    if (disconnected) scheduleRefresh(); // things may have changed while we were away
    disconnected = false;
  } else if (!disconnected) {
    disconnected = true;
    // A blip is not worth a banner; a few seconds without the server is.
    offlineTimer = setTimeout(() => { $('#offline').hidden = false; }, 2500);
  }
}

const feed = new EventFeed({
  onSnapshot: (entries) => {
    for (const { id, status } of entries) {
      grid.setStatus(id, status);
      viewer.setStatus(id, status);
      plans.setStatus(id, status);
    }
    updateSummary();
  },
  onStatus: (id, status) => {
    grid.setStatus(id, status);
    viewer.setStatus(id, status);
    plans.setStatus(id, status);
  },
  onCameras: () => scheduleRefresh(),
  onPlans: (change) => plans.onChange(change),
  onRecording: (id, state) => recording.setState(id, state),
  onConnection: (connected) => { setConnected(connected); plans.setConnected(connected); },
});

// ----- floor plans -----

const plans = new PlansView($('#plans-view'), {
  cameras: () => store.cameras,
  toast: (message, tone) => toast(message, tone),
  // The grid's streams pause while the plans are shown (the full-screen view does the same).
  suspendGrid: (suspended) => { if (!viewer.isOpen) grid.setSuspended(suspended); },
});

// ----- library, storage, recording -----

const library = new LibraryView($('#library-view'), {
  cameras: () => store.cameras,
  toast: (message, tone) => toast(message, tone),
  editCamera: (id) => runAction(id, 'edit'),
  recordingState: (id) => recording.get(id),
});

const storage = new StorageView($('#storage-view'), {
  toast: (message, tone) => toast(message, tone),
  editCamera: (id) => runAction(id, 'edit'),
});

const recording = new RecordingControls({
  dialog: $('#camera-dialog'), grid, viewer, app: { toast: (message, tone) => toast(message, tone), cameras: () => store.cameras },
});

/**
 * The library and storage views, from location.hash (#library[/camera[/day]], #storage). Runs after the
 * plans view's own routing (which knows only the grid and the plans) and corrects what it set.
 */
function routeViews() {
  const match = /^#(library|storage)(?:\/(.*))?$/.exec(location.hash);
  const view = match?.[1] ?? null;
  if (view) {
    if (viewer.isOpen) closeViewer({ fromHistory: true });
    document.documentElement.dataset.view = view;
    for (const link of document.querySelectorAll('[data-view-link]')) {
      if (link.dataset.viewLink === view) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    grid.setSuspended(true);
  }
  if (view === 'library') library.show(match[2] ?? '');
  else library.hide();
  if (view === 'storage') storage.show();
  else storage.hide();
  if (!view && document.documentElement.dataset.view !== 'plans' && !viewer.isOpen) grid.setSuspended(false);
}
window.addEventListener('hashchange', routeViews);

/** The top bar's "more" menu on a phone: what does not fit next to the views. */
async function showMoreMenu(anchor) {
  const dark = effectiveTheme() === 'dark';
  const items = [
    { label: 'Find cameras', icon: 'gauge', action: 'discover' },
    { label: 'Add camera', icon: 'plus', action: 'add', shortcut: 'A' },
    { label: dark ? 'Light mode' : 'Dark mode', icon: dark ? 'sun' : 'moon', action: 'theme', shortcut: 'T' },
  ];
  if (!matchMedia('(pointer: coarse)').matches) items.push({ label: 'Keyboard shortcuts', icon: 'keyboard', action: 'shortcuts', shortcut: '?' });
  const action = await openMenu(anchor, items);
  if (action === 'discover') discoveryDialog.open();
  else if (action === 'add') cameraDialog.open();
  else if (action === 'theme') toggleTheme();
  else if (action === 'shortcuts') showShortcuts();
}

// ----- start -----

hydrateIcons();
updateThemeButton();
systemDark.addEventListener('change', updateThemeButton);
if (!mediaSourceAvailable) $('#no-mse').hidden = false;
setTimeout(() => { if (!store.loaded) $('#loading').classList.add('visible'); }, 300);
refresh().then(() => {
  const match = /^#camera\/(.+)$/.exec(location.hash);
  if (match && cameraByID(match[1].toUpperCase())) {
    history.replaceState({ viewer: match[1].toUpperCase() }, '', location.hash);
    openViewer(match[1].toUpperCase(), { push: false });
  }
});
feed.start();
// A page left (or put in the back-forward cache) gives its event stream back: browsers allow only six
// connections per server, and a stream held by a page nobody sees would use one up.
window.addEventListener('pagehide', () => feed.stop());
window.addEventListener('pageshow', (event) => { if (event.persisted) feed.start(); });

// For tests and the curious: the app's state, read-only by convention.
window.watchbox = { store, grid, viewer, plans, library, storage, recording };
plans.route();
routeViews();
