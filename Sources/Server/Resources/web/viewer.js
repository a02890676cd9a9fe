// The full-screen view of one camera: the main stream, its numbers, previous/next, and the
// browser's own full screen where there is one. Esc, the close button or Back return to the grid.

import { liveURL } from './api.js';
import { renderVeil } from './grid.js';
import { LivePlayer } from './player.js';
import { describe, statsLine } from './status.js';

const actionLabels = { edit: 'Edit camera', activate: 'Turn on' };

export class Viewer {
  /** callbacks: onClose(), onStep(delta), onAction(id, action) */
  constructor(root, callbacks) {
    this.root = root;
    this.callbacks = callbacks;
    this.camera = null;
    this.status = null;
    this.player = null;
    this.video = root.querySelector('video');
    this.veil = root.querySelector('.viewer-veil');
    this.nameEl = root.querySelector('.viewer-name');
    this.labelEl = root.querySelector('.viewer-label');
    this.statsEls = root.querySelectorAll('.viewer-stats');
    this.poster = root.querySelector('.viewer-poster');
    this.idleTimer = 0;

    root.addEventListener('click', (event) => {
      const button = event.target.closest('[data-action], [data-veil-action]');
      if (!button) {
        // A tap on the picture shows or hides the controls on touch screens.
        if (matchMedia('(pointer: coarse)').matches) root.classList.toggle('idle');
        return;
      }
      const action = button.dataset.action || button.dataset.veilAction;
      if (action === 'close') this.callbacks.onClose();
      else if (action === 'previous') this.callbacks.onStep(-1);
      else if (action === 'next') this.callbacks.onStep(1);
      else if (action === 'fullscreen') this.toggleFullscreen();
      else if (this.camera) this.callbacks.onAction(this.camera.id, action);
    });
    const wake = () => this.wake();
    root.addEventListener('pointermove', wake);
    root.addEventListener('keydown', wake);
    document.addEventListener('fullscreenchange', () => {
      root.classList.toggle('native-fullscreen', document.fullscreenElement === root);
    });
    const fullscreenButton = root.querySelector('[data-action="fullscreen"]');
    if (fullscreenButton && !document.fullscreenEnabled) fullscreenButton.hidden = true;
  }

  get isOpen() {
    return !this.root.hidden;
  }

  open(camera, status, count) {
    const same = this.camera?.id === camera.id && this.player;
    this.camera = camera;
    this.status = status;
    this.root.hidden = false;
    document.documentElement.classList.add('viewer-open');
    this.root.querySelectorAll('[data-action="previous"], [data-action="next"]').forEach((button) => {
      button.hidden = count < 2;
    });
    if (!same) {
      this.player?.destroy();
      this.poster.hidden = true;
      if (camera.thumbnailURL) {
        this.poster.src = camera.thumbnailURL;
        this.poster.onload = () => { this.poster.hidden = false; };
      }
      this.player = new LivePlayer(this.video, {
        url: liveURL(camera.id, 'main'),
        onState: () => this.render(),
        onStatus: (next) => { this.status = next; this.render(); },
        onInit: () => this.render(),
      });
      if (camera.isActive !== false) this.player.start();
    }
    this.render();
    this.wake();
    this.root.querySelector('[data-action="close"]').focus({ preventScroll: true, focusVisible: false });
  }

  /** The camera changed (renamed, edited, switched on or off). */
  update(camera) {
    if (!this.camera || camera.id !== this.camera.id) return;
    const restart = camera.isActive !== this.camera.isActive || camera.rtspURL !== this.camera.rtspURL;
    this.camera = camera;
    if (restart) {
      this.player.stop();
      if (camera.isActive !== false) this.player.start();
    }
    this.render();
  }

  setStatus(id, status) {
    if (!this.camera || id !== this.camera.id) return;
    const before = this.status?.state;
    this.status = status;
    if (before !== status.state && ['live', 'connecting', 'idle'].includes(status.state)) this.player?.kick();
    this.render();
  }

  setHidden(hidden) {
    this.player?.setPaused(hidden);
  }

  close() {
    this.player?.destroy();
    this.player = null;
    this.camera = null;
    this.root.hidden = true;
    document.documentElement.classList.remove('viewer-open');
    if (document.fullscreenElement === this.root) document.exitFullscreen().catch(() => {});
  }

  toggleFullscreen() {
    if (!document.fullscreenEnabled) return;
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else this.root.requestFullscreen({ navigationUI: 'hide' }).catch(() => {});
  }

  /** Shows the controls, and hides them again after three quiet seconds while the video plays. */
  wake() {
    this.root.classList.remove('idle');
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      // Controls stay while something is wrong (the message matters) or a key moved focus to them.
      const keyboardFocus = this.root.querySelector('.viewer-bar :focus-visible, .viewer-nav:focus-visible');
      if (this.root.dataset.state === 'live' && !keyboardFocus) this.root.classList.add('idle');
    }, 3000);
  }

  render() {
    if (!this.camera) return;
    const view = describe(this.camera, this.status, this.player);
    this.root.dataset.state = view.key;
    this.root.dataset.tone = view.tone;
    this.nameEl.textContent = this.camera.name;
    this.labelEl.textContent = view.label;
    const stats = view.key === 'live' ? statsLine(this.status, this.player?.info) : '';
    for (const element of this.statsEls) element.textContent = stats;
    renderVeil(this.veil, view, actionLabels);
  }
}
