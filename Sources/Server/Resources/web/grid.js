// The camera grid: one cell per camera with its live player, laid out from the camera count and the
// window's size, reordered by dragging (pointer events: mouse, pen and touch) or Shift+arrows.

import { liveURL } from './api.js';
import { icon } from './icons.js';
import { LivePlayer } from './player.js';
import { describe, statsLine } from './status.js';

/** Narrowest useful cell, in CSS pixels. */
const minCellWidth = 200;
/** A touch held this long without moving picks the cell up. */
const longPress = 420;

/** Columns for a camera count: 1 → 1, 2–4 → 2, 5–9 → 3, 10–16 → 4, more → 5. */
export function columnsFor(count) {
  if (count <= 1) return 1;
  if (count <= 4) return 2;
  if (count <= 9) return 3;
  if (count <= 16) return 4;
  return 5;
}

/**
 * The grid for `count` cameras in a width × height area (CSS px): {columns, cellWidth, gap}.
 * The camera count sets the most columns (columnsFor), the width lowers it so that no cell is
 * narrower than about 200 px. Among the column counts up to that, the one whose 16:9 cells are
 * largest while every row still fits in the window wins (fewer columns only when clearly larger,
 * e.g. 6 cameras on a tablet held upright: 2 × 3 rather than 3 × 2 with empty space below). When no
 * count fits, the grid keeps the most columns and scrolls. A narrow (phone) window never shrinks
 * cells to fit: it scrolls through full-width cells.
 */
export function gridLayout(count, width, height) {
  const gap = width < 640 ? 8 : 12;
  const fitting = Math.max(1, Math.floor((width + gap) / (minCellWidth + gap)));
  const most = Math.max(1, Math.min(columnsFor(count), fitting));
  let best = null;
  for (let columns = most; columns >= 1; columns -= 1) {
    const rows = Math.ceil(count / columns);
    const byWidth = (width - gap * (columns - 1)) / columns;
    const byHeight = ((height - gap * (rows - 1)) / rows) * (16 / 9);
    let cellWidth = null;
    if (byHeight >= byWidth) cellWidth = byWidth;
    else if (width >= 560 && byHeight >= Math.max(minCellWidth, byWidth * 0.6)) cellWidth = byHeight;
    if (cellWidth !== null && (!best || cellWidth > best.cellWidth * 1.08)) best = { columns, cellWidth, gap };
  }
  return best ?? { columns: most, cellWidth: (width - gap * (most - 1)) / most, gap };
}

/** Fills a veil (the message over a cell or the full-screen view) from a `describe` result. */
export function renderVeil(veil, view, actionLabels) {
  veil.dataset.veil = view.veil || 'none';
  const signature = [view.veil, view.icon, view.spinner, view.title, view.detail, view.action].join('|');
  if (veil.dataset.signature === signature) return;
  veil.dataset.signature = signature;
  const graphic = view.spinner
    ? '<span class="spinner" aria-hidden="true"></span>'
    : (view.icon ? `<span class="veil-icon">${icon(view.icon)}</span>` : '');
  const action = view.action && actionLabels?.[view.action]
    ? `<button type="button" class="btn btn-glass btn-small" data-veil-action="${view.action}">${actionLabels[view.action]}</button>`
    : '';
  veil.innerHTML = view.veil === 'none' && !view.spinner ? '' : `<div class="veil-body">${graphic}` +
    (view.title ? `<p class="veil-title"></p>` : '') + (view.detail ? `<p class="veil-detail"></p>` : '') + `${action}</div>`;
  if (view.title) veil.querySelector('.veil-title').textContent = view.title;
  if (view.detail) {
    const detail = veil.querySelector('.veil-detail');
    detail.textContent = view.detail;
    detail.title = view.detail; // the whole sentence, when a small cell cuts it short
  }
}

const actionLabels = { edit: 'Edit camera', activate: 'Turn on' };

class Cell {
  constructor(grid, camera) {
    this.grid = grid;
    this.camera = camera;
    this.status = camera.status || { state: 'idle', viewers: 0 };
    this.visible = false;
    this.view = null;

    const el = document.createElement('article');
    el.className = 'cell';
    el.tabIndex = 0;
    el.setAttribute('role', 'listitem');
    el.dataset.cameraId = camera.id;
    el.innerHTML = `
      <div class="cell-media">
        <img class="cell-poster" alt="" decoding="async" hidden>
        <video class="cell-video" muted playsinline autoplay disablepictureinpicture disableremoteplayback></video>
      </div>
      <div class="cell-shade" aria-hidden="true"></div>
      <div class="cell-veil" aria-live="polite"></div>
      <div class="cell-head">
        <span class="chip"><span class="dot" aria-hidden="true"></span><span class="cell-name"></span><span class="chip-label"></span></span>
        <span class="cell-tools">
          <button type="button" class="tool tool-drag" aria-label="Drag to reorder" title="Drag to reorder">${icon('grip')}</button>
          <button type="button" class="tool tool-menu" aria-label="Camera options" title="Options" aria-haspopup="menu">${icon('more')}</button>
        </span>
      </div>
      <div class="cell-foot"><span class="cell-stats"></span></div>`;
    this.el = el;
    this.video = el.querySelector('video');
    this.poster = el.querySelector('.cell-poster');
    this.veil = el.querySelector('.cell-veil');
    this.nameEl = el.querySelector('.cell-name');
    this.labelEl = el.querySelector('.chip-label');
    this.statsEl = el.querySelector('.cell-stats');
    this.poster.addEventListener('load', () => { this.poster.hidden = false; });
    this.poster.addEventListener('error', () => { this.poster.hidden = true; });

    this.player = new LivePlayer(this.video, {
      url: liveURL(camera.id),
      onState: () => {
        this.render();
        this.grid.onStatusChange?.();
      },
      onStatus: (status) => this.setStatus(status),
      onInit: () => this.render(),
    });
    this.update(camera);
  }

  update(camera) {
    const previous = this.camera;
    this.camera = camera;
    if (camera.status && !this.statusFromEvents) this.status = camera.status;
    this.nameEl.textContent = camera.name;
    const thumbnail = camera.thumbnailURL || '';
    if (this.poster.dataset.src !== thumbnail) {
      this.poster.dataset.src = thumbnail;
      if (thumbnail) this.poster.src = thumbnail;
      else this.poster.hidden = true;
    }
    const restart = previous !== camera && (previous.rtspURL !== camera.rtspURL || previous.isActive !== camera.isActive ||
      JSON.stringify(previous.profiles) !== JSON.stringify(camera.profiles));
    if (restart && this.player.started) this.player.stop();
    this.sync();
    this.render();
  }

  setStatus(status) {
    const before = this.status?.state;
    this.status = status;
    this.statusFromEvents = true;
    if (before !== status.state && ['live', 'connecting', 'idle'].includes(status.state)) this.player.kick();
    this.render();
    this.grid.onStatusChange?.();
  }

  /** Starts, pauses or resumes the player for what is on screen now. */
  sync() {
    const wanted = this.grid.active && this.visible && this.camera.isActive !== false;
    const player = this.player;
    if (wanted) {
      if (!player.started) player.start();
      else player.setPaused(false);
    } else if (player.started) {
      if (this.camera.isActive === false) player.stop();
      else player.setPaused(true);
    }
  }

  render() {
    const view = describe(this.camera, this.status, this.player);
    this.view = view;
    const el = this.el;
    if (el.dataset.state !== view.key) el.dataset.state = view.key;
    el.dataset.tone = view.tone;
    el.dataset.player = this.player.state;
    this.labelEl.textContent = view.label;
    this.statsEl.textContent = view.key === 'live' ? statsLine(this.status, this.player.info) : '';
    el.setAttribute('aria-label', `${this.camera.name}: ${view.title || view.label}. Enter opens full screen.`);
    renderVeil(this.veil, view, actionLabels);
  }

  destroy() {
    this.player.destroy();
    this.el.remove();
  }
}

export class Grid {
  /**
   * root: the grid element; scroller: its scrolling parent (for the size).
   * callbacks: onOpen(id), onMenu(id, anchor), onReorder(ids), onAction(id, action), onStatusChange()
   */
  constructor(root, callbacks) {
    this.root = root;
    this.callbacks = callbacks;
    this.onStatusChange = callbacks.onStatusChange;
    this.cells = new Map();
    this.order = [];
    this.columns = 1;
    this.active = !document.hidden;
    this.suspended = false;
    this.press = null;
    this.drag = null;
    this.suppressClick = false;

    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const cell = this.cells.get(entry.target.dataset.cameraId);
        if (!cell) continue;
        cell.visible = entry.isIntersecting;
        cell.sync();
      }
    }, { rootMargin: '48px' });
    new ResizeObserver(() => this.layout()).observe(root.parentElement);
    window.addEventListener('resize', () => this.layout());
    window.addEventListener('orientationchange', () => setTimeout(() => this.layout(), 150));
    document.addEventListener('visibilitychange', () => this.updateActivity());

    root.addEventListener('click', (event) => this.onClick(event));
    root.addEventListener('pointerdown', (event) => this.onPointerDown(event));
    window.addEventListener('pointermove', (event) => this.onPointerMove(event));
    window.addEventListener('pointerup', (event) => this.onPointerUp(event, true));
    window.addEventListener('pointercancel', (event) => this.onPointerUp(event, false));
    // While a cell is picked up by touch, the finger moves it instead of scrolling the page.
    root.addEventListener('touchmove', (event) => { if (this.drag) event.preventDefault(); }, { passive: false });
    root.addEventListener('contextmenu', (event) => {
      if (this.press?.type === 'touch' || this.drag) event.preventDefault();
    });
  }

  get ids() {
    return [...this.root.children].map((el) => el.dataset.cameraId).filter(Boolean);
  }

  /** The grid shows `cameras`, in this order (cells are kept, so players keep playing). */
  setCameras(cameras) {
    const wanted = new Set(cameras.map((camera) => camera.id));
    for (const [id, cell] of this.cells) {
      if (!wanted.has(id)) {
        this.observer.unobserve(cell.el);
        cell.destroy();
        this.cells.delete(id);
      }
    }
    cameras.forEach((camera, index) => {
      let cell = this.cells.get(camera.id);
      if (cell) {
        cell.update(camera);
      } else {
        cell = new Cell(this, camera);
        this.cells.set(camera.id, cell);
        this.observer.observe(cell.el);
      }
      if (!this.drag && this.root.children[index] !== cell.el) {
        this.root.insertBefore(cell.el, this.root.children[index] || null);
      }
    });
    this.layout();
  }

  setStatus(id, status) {
    this.cells.get(id)?.setStatus(status);
  }

  cell(id) {
    return this.cells.get(id);
  }

  /** Pauses every stream (full-screen view open) or lets the visible ones play again. */
  setSuspended(suspended) {
    this.suspended = suspended;
    this.updateActivity();
  }

  updateActivity() {
    this.active = !document.hidden && !this.suspended;
    for (const cell of this.cells.values()) cell.sync();
  }

  // ----- layout -----

  layout() {
    const count = this.cells.size;
    const container = this.root.parentElement;
    if (!count || !container) return;
    const style = getComputedStyle(container);
    const width = container.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const header = document.querySelector('.topbar')?.getBoundingClientRect().height ?? 0;
    const height = window.innerHeight - header - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const { columns, cellWidth, gap } = gridLayout(count, width, height);
    this.columns = columns;
    this.root.style.setProperty('--columns', String(columns));
    this.root.style.setProperty('--cell-width', `${Math.floor(cellWidth)}px`);
    this.root.style.setProperty('--gap', `${gap}px`);
    this.root.dataset.columns = String(columns);
  }

  // ----- focus and keyboard -----

  focusedID() {
    return document.activeElement?.closest?.('.cell')?.dataset.cameraId ?? null;
  }

  focus(id) {
    this.cells.get(id)?.el.focus();
  }

  /** Moves keyboard focus by dx columns and dy rows. */
  moveFocus(dx, dy) {
    const ids = this.ids;
    if (!ids.length) return;
    const current = ids.indexOf(this.focusedID());
    const next = current < 0 ? 0 : current + dx + dy * this.columns;
    if (next >= 0 && next < ids.length) this.focus(ids[next]);
  }

  /** Moves the focused camera by dx columns and dy rows, and saves the order. */
  moveFocused(dx, dy) {
    const id = this.focusedID();
    const ids = this.ids;
    const from = ids.indexOf(id);
    if (from < 0) return;
    const to = Math.max(0, Math.min(ids.length - 1, from + dx + dy * this.columns));
    if (to === from) return;
    const el = this.cells.get(id).el;
    this.animateMove(() => {
      const target = this.root.children[to];
      this.root.insertBefore(el, to > from ? target.nextSibling : target);
    });
    el.focus();
    this.callbacks.onReorder(this.ids);
  }

  // ----- clicks -----

  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      event.preventDefault();
      return;
    }
    const cellEl = event.target.closest('.cell');
    if (!cellEl) return;
    const id = cellEl.dataset.cameraId;
    const action = event.target.closest('[data-veil-action]')?.dataset.veilAction;
    if (action) {
      this.callbacks.onAction(id, action);
      return;
    }
    const menu = event.target.closest('.tool-menu');
    if (menu) {
      this.callbacks.onMenu(id, menu);
      return;
    }
    if (event.target.closest('.tool-drag')) return;
    this.callbacks.onOpen(id);
  }

  // ----- drag to reorder -----

  onPointerDown(event) {
    if (this.drag || (event.pointerType === 'mouse' && event.button !== 0)) return;
    const cellEl = event.target.closest('.cell');
    if (!cellEl || this.cells.size < 2) return;
    const handle = Boolean(event.target.closest('.tool-drag'));
    if (!handle && event.target.closest('button')) return;
    this.clearPress();
    this.press = { id: cellEl.dataset.cameraId, pointerId: event.pointerId, type: event.pointerType, handle,
      x: event.clientX, y: event.clientY, timer: 0 };
    if (handle) event.preventDefault();
    if (event.pointerType !== 'mouse' && !handle) {
      this.press.timer = setTimeout(() => {
        if (this.press) this.beginDrag(this.press.x, this.press.y);
      }, longPress);
    }
  }

  onPointerMove(event) {
    if (this.drag) {
      if (event.pointerId !== this.drag.pointerId) return;
      this.drag.x = event.clientX;
      this.drag.y = event.clientY;
      this.moveDrag();
      return;
    }
    const press = this.press;
    if (!press || event.pointerId !== press.pointerId) return;
    const distance = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    if (press.type === 'mouse' || press.handle) {
      if (distance > 6) this.beginDrag(event.clientX, event.clientY, press.x, press.y);
    } else if (distance > 10) {
      this.clearPress(); // the finger is scrolling
    } else {
      press.x = event.clientX;
      press.y = event.clientY;
    }
  }

  onPointerUp(event, commit) {
    if (this.drag && event.pointerId === this.drag.pointerId) {
      this.endDrag(commit);
    } else if (this.press && event.pointerId === this.press.pointerId) {
      this.clearPress();
    }
  }

  clearPress() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
  }

  beginDrag(x, y, originX = x, originY = y) {
    const press = this.press;
    this.clearPress();
    const cell = this.cells.get(press.id);
    if (!cell) return;
    const rect = cell.el.getBoundingClientRect();
    this.drag = { cell, pointerId: press.pointerId, type: press.type, x, y,
      grabX: originX - rect.left, grabY: originY - rect.top, before: this.ids.join(), scroll: 0, frame: 0 };
    cell.el.classList.add('dragging');
    this.root.classList.add('is-dragging');
    document.documentElement.classList.add('is-dragging');
    if (press.type !== 'mouse' && navigator.userActivation?.hasBeenActive) navigator.vibrate?.(10);
    // Where the cell will land: a dashed slot that follows it through the grid.
    this.slot = document.createElement('div');
    this.slot.className = 'drop-slot';
    this.slot.setAttribute('aria-hidden', 'true');
    document.body.append(this.slot);
    this.moveDrag();
  }

  moveDrag() {
    const drag = this.drag;
    const el = drag.cell.el;
    const gridRect = this.root.getBoundingClientRect();
    const px = drag.x - gridRect.left;
    const py = drag.y - gridRect.top;
    // The slot under the pointer, from layout positions (offsets ignore the animations' transforms).
    let target = null;
    for (const child of this.root.children) {
      if (child === el) continue;
      if (px >= child.offsetLeft && px < child.offsetLeft + child.offsetWidth &&
          py >= child.offsetTop && py < child.offsetTop + child.offsetHeight) {
        target = child;
        break;
      }
    }
    if (target) {
      const children = [...this.root.children];
      const from = children.indexOf(el);
      const to = children.indexOf(target);
      this.animateMove(() => this.root.insertBefore(el, to > from ? target.nextSibling : target), el);
    }
    const left = drag.x - drag.grabX - (gridRect.left + el.offsetLeft);
    const top = drag.y - drag.grabY - (gridRect.top + el.offsetTop);
    el.style.transform = `translate(${left}px, ${top}px) scale(1.03)`;
    Object.assign(this.slot.style, {
      left: `${gridRect.left + el.offsetLeft}px`, top: `${gridRect.top + el.offsetTop}px`,
      width: `${el.offsetWidth}px`, height: `${el.offsetHeight}px`,
    });
    // Near the window's top or bottom edge the page scrolls, so a cell can travel anywhere.
    const edge = 64;
    drag.scroll = drag.y < edge ? -Math.ceil((edge - drag.y) / 6) : drag.y > innerHeight - edge ? Math.ceil((drag.y - innerHeight + edge) / 6) : 0;
    if (drag.scroll && !drag.frame) {
      const step = () => {
        if (!this.drag || !this.drag.scroll) { if (this.drag) this.drag.frame = 0; return; }
        window.scrollBy(0, this.drag.scroll);
        this.moveDrag();
        this.drag.frame = requestAnimationFrame(step);
      };
      drag.frame = requestAnimationFrame(step);
    }
  }

  /** Runs `change` (a DOM move) and slides the other cells from their old places to the new. */
  animateMove(change, skip = null) {
    const before = new Map();
    for (const child of this.root.children) before.set(child, [child.offsetLeft, child.offsetTop]);
    change();
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    for (const child of this.root.children) {
      if (child === skip) continue;
      const [x, y] = before.get(child) ?? [child.offsetLeft, child.offsetTop];
      const dx = x - child.offsetLeft;
      const dy = y - child.offsetTop;
      if (dx || dy) {
        child.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }],
          { duration: 200, easing: 'cubic-bezier(.2,.7,.3,1)' });
      }
    }
  }

  endDrag(commit) {
    const drag = this.drag;
    this.drag = null;
    cancelAnimationFrame(drag.frame);
    const el = drag.cell.el;
    this.slot?.remove();
    this.slot = null;
    el.classList.remove('dragging');
    el.classList.add('settling');
    el.style.transform = '';
    setTimeout(() => el.classList.remove('settling'), 220);
    this.root.classList.remove('is-dragging');
    document.documentElement.classList.remove('is-dragging');
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const ids = this.ids;
    if (commit && ids.join() !== drag.before) this.callbacks.onReorder(ids);
    else if (!commit) this.callbacks.onReorder(null);
  }
}
