// The floor plan on screen: the picture, field-of-view sectors and camera markers in one "world" layer
// moved by a single CSS transform (translate + scale), so that panning is a compositor-only change and
// sectors can never drift from their markers. Markers are counter-scaled (--inv) so that each keeps a
// touch target of at least 44 px at any zoom. Mouse wheel and drag on desktop; pinch and drag on touch
// screens (Pointer Events); tap, long-press (0.5 s) and double-click on markers; in edit mode, drag to
// move a marker and handles to turn it, widen or narrow its field of view and change its range.

const svgNS = 'http://www.w3.org/2000/svg';
const longPressMs = 500;
const tapSlop = 8;
const minZoom = 0.5;
const maxZoom = 12;

/** The wedge a camera sees, in picture pixels: apex at (cx, cy), `direction` clockwise from up. */
export function sectorPath(cx, cy, radius, direction, fieldOfView) {
  if (fieldOfView >= 359.5) {
    return `M ${cx - radius} ${cy} a ${radius} ${radius} 0 1 0 ${2 * radius} 0 a ${radius} ${radius} 0 1 0 ${-2 * radius} 0 Z`;
  }
  const point = (degrees) => {
    const radians = (degrees * Math.PI) / 180;
    return [cx + radius * Math.sin(radians), cy - radius * Math.cos(radians)];
  };
  const [x1, y1] = point(direction - fieldOfView / 2);
  const [x2, y2] = point(direction + fieldOfView / 2);
  const large = fieldOfView > 180 ? 1 : 0;
  return `M ${cx} ${cy} L ${x1} ${y1} A ${radius} ${radius} 0 ${large} 1 ${x2} ${y2} Z`;
}

export class PlanStage {
  /** callbacks: onTap(placement, marker), onLongPress(placement), onMove(placement, fields), onDrop(cameraID, x, y),
   *  onSelect(placement|null) */
  constructor(host, callbacks) {
    const root = document.createElement('div');
    host.append(root);
    this.root = root;
    this.callbacks = callbacks;
    this.plan = null;
    this.placements = [];
    this.states = new Map(); // camera id → marker state
    this.labels = new Map(); // camera id → a more precise label than the state's ("Standby · OK")
    this.names = new Map(); // camera id → name
    this.editing = false;
    this.selected = null;
    this.scale = 1;
    this.fit = 1;
    this.tx = 0;
    this.ty = 0;
    this.frame = 0;
    this.pointers = new Map();
    this.gesture = null;

    root.classList.add('plan-stage');
    root.innerHTML = `
      <div class="plan-world">
        <img class="plan-image" alt="" draggable="false">
        <svg class="plan-fov" aria-hidden="true"></svg>
        <div class="plan-markers"></div>
        <div class="plan-handles" hidden>
          <span class="plan-handle handle-direction" data-handle="direction" title="Drag to turn and set the range"></span>
          <span class="plan-handle handle-fov" data-handle="fov" title="Drag to widen or narrow the view"></span>
        </div>
      </div>
      <div class="plan-zoom" role="group" aria-label="Zoom">
        <button type="button" class="icon-btn" data-zoom="in" aria-label="Zoom in" title="Zoom in">+</button>
        <button type="button" class="icon-btn" data-zoom="out" aria-label="Zoom out" title="Zoom out">−</button>
        <button type="button" class="icon-btn" data-zoom="fit" aria-label="Fit the plan" title="Fit">⤢</button>
      </div>`;
    this.world = root.querySelector('.plan-world');
    this.image = root.querySelector('.plan-image');
    this.svg = root.querySelector('.plan-fov');
    this.markerLayer = root.querySelector('.plan-markers');
    this.handles = root.querySelector('.plan-handles');

    root.addEventListener('pointerdown', (event) => this.pointerDown(event));
    root.addEventListener('pointermove', (event) => this.pointerMove(event));
    root.addEventListener('pointerup', (event) => this.pointerUp(event));
    root.addEventListener('pointercancel', (event) => this.pointerUp(event, true));
    root.addEventListener('wheel', (event) => this.wheel(event), { passive: false });
    root.addEventListener('dblclick', (event) => {
      const marker = event.target.closest('.marker');
      if (marker && !this.editing) this.callbacks.onLongPress?.(this.placementOf(marker));
    });
    root.addEventListener('contextmenu', (event) => { if (event.target.closest('.marker')) event.preventDefault(); });
    root.addEventListener('keydown', (event) => {
      const marker = event.target.closest('.marker');
      if (marker && (event.key === 'Enter' || event.key === ' ')) {
        event.preventDefault();
        this.callbacks.onTap?.(this.placementOf(marker), marker);
      }
    });
    root.querySelector('.plan-zoom').addEventListener('click', (event) => {
      const button = event.target.closest('[data-zoom]');
      if (!button) return;
      const rect = this.root.getBoundingClientRect();
      if (button.dataset.zoom === 'fit') this.fitToView();
      else this.zoomAt(rect.width / 2, rect.height / 2, button.dataset.zoom === 'in' ? 1.5 : 1 / 1.5);
    });
    this.resizeObserver = new ResizeObserver(() => {
      const size = this.viewSize();
      const changed = !this.lastSize || size[0] !== this.lastSize[0] || size[1] !== this.lastSize[1];
      if (changed && size[0] && size[1] && !this.userMoved) this.fitToView();
      this.lastSize = size;
    });
    this.resizeObserver.observe(root);
  }

  viewSize() {
    return [this.root.clientWidth, this.root.clientHeight];
  }

  get width() { return this.plan?.imageWidth || 1600; }
  get height() { return this.plan?.imageHeight || 1000; }
  get longSide() { return Math.max(this.width, this.height); }

  /** Shows a plan (summary with imageURL and size) and its placements. */
  setPlan(plan, placements) {
    const samePlan = this.plan?.id === plan.id;
    this.plan = plan;
    this.world.style.width = `${this.width}px`;
    this.world.style.height = `${this.height}px`;
    this.svg.setAttribute('viewBox', `0 0 ${this.width} ${this.height}`);
    this.svg.setAttribute('width', this.width);
    this.svg.setAttribute('height', this.height);
    if (plan.imageURL) {
      if (this.image.getAttribute('src') !== plan.imageURL) this.image.src = plan.imageURL;
      this.image.hidden = false;
    } else {
      this.image.removeAttribute('src');
      this.image.hidden = true;
    }
    this.root.classList.toggle('no-image', !plan.imageURL);
    this.setPlacements(placements);
    if (!samePlan) {
      this.userMoved = false;
      this.fitToView();
    }
  }

  setPlacements(placements) {
    this.placements = placements.map((p) => ({ ...p }));
    if (this.selected && !this.placements.some((p) => p.id === this.selected)) this.selected = null;
    this.renderAll();
  }

  setNames(names) {
    this.names = names;
    for (const marker of this.markerLayer.children) {
      const label = marker.querySelector('.marker-label');
      const name = this.names.get(marker.dataset.cameraId) || 'Camera';
      if (label.textContent !== name) label.textContent = name;
      marker.setAttribute('aria-label', `${name}: ${this.labelFor(marker.dataset.cameraId, marker.dataset.state)}`);
    }
  }

  labelFor(cameraID, state) {
    return this.labels.get(cameraID) || stateLabels[state] || state || '';
  }

  /** `label`: what to say instead of the state's own label (optional). */
  setState(cameraID, state, label) {
    this.states.set(cameraID, state);
    if (label) this.labels.set(cameraID, label);
    else this.labels.delete(cameraID);
    for (const marker of this.markerLayer.querySelectorAll(`.marker[data-camera-id="${cameraID}"]`)) {
      marker.dataset.state = state;
      marker.setAttribute('aria-label', `${this.names.get(cameraID) || 'Camera'}: ${this.labelFor(cameraID, state)}`);
    }
    for (const path of this.svg.querySelectorAll(`[data-camera-id="${cameraID}"]`)) path.dataset.state = state;
  }

  setEditing(editing) {
    this.editing = editing;
    this.root.classList.toggle('editing', editing);
    if (!editing) this.select(null);
    this.renderHandles();
  }

  select(id) {
    this.selected = id;
    for (const marker of this.markerLayer.children) marker.classList.toggle('selected', marker.dataset.placementId === id);
    for (const group of this.svg.children) group.classList.toggle('selected', group.dataset.placementId === id);
    this.renderHandles();
  }

  placementOf(element) {
    return this.placements.find((p) => p.id === element.dataset.placementId) || null;
  }

  // ----- drawing -----

  /** Draws every placement, reusing the elements already there (a marker may be under a finger or focused). */
  renderAll() {
    const oldMarkers = new Map([...this.markerLayer.children].map((m) => [m.dataset.placementId, m]));
    const oldGroups = new Map([...this.svg.children].map((g) => [g.dataset.placementId, g]));
    const markers = [];
    const sectors = [];
    for (const p of this.placements) {
      const state = this.states.get(p.cameraID) || 'idle';
      const name = this.names.get(p.cameraID) || 'Camera';
      let marker = oldMarkers.get(p.id);
      if (!marker) {
        marker = document.createElement('button');
        marker.type = 'button';
        marker.className = 'marker';
        marker.dataset.placementId = p.id;
        marker.innerHTML = '<span class="marker-dot"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 8.5A2.5 2.5 0 0 1 6.5 6h6A2.5 2.5 0 0 1 15 8.5v7a2.5 2.5 0 0 1-2.5 2.5h-6A2.5 2.5 0 0 1 4 15.5Z"/><path d="m15 10.5 5-3v9l-5-3"/></svg></span><span class="marker-label"></span>';
      }
      marker.dataset.cameraId = p.cameraID;
      if (marker.dataset.state !== state) marker.dataset.state = state;
      marker.setAttribute('aria-label', `${name}: ${this.labelFor(p.cameraID, state)}`);
      const label = marker.querySelector('.marker-label');
      if (label.textContent !== name) label.textContent = name;
      marker.classList.toggle('selected', p.id === this.selected);
      this.positionMarker(marker, p);
      markers.push(marker);

      let group = oldGroups.get(p.id);
      if (!group) {
        group = document.createElementNS(svgNS, 'g');
        group.dataset.placementId = p.id;
        const path = document.createElementNS(svgNS, 'path');
        path.setAttribute('class', 'fov-sector');
        path.setAttribute('vector-effect', 'non-scaling-stroke');
        const origin = document.createElementNS(svgNS, 'circle');
        origin.setAttribute('class', 'fov-origin');
        origin.setAttribute('r', '0.5');
        group.append(path, origin);
      }
      group.dataset.cameraId = p.cameraID;
      group.dataset.state = state;
      group.setAttribute('class', p.id === this.selected ? 'fov selected' : 'fov');
      this.shapeSector(group, p);
      sectors.push(group);
    }
    // Only what changed is touched: kept elements stay where they are in the tree.
    const keep = (layer, wanted) => {
      const set = new Set(wanted);
      for (const child of [...layer.children]) if (!set.has(child)) child.remove();
      wanted.forEach((element, index) => { if (layer.children[index] !== element) layer.insertBefore(element, layer.children[index] || null); });
    };
    keep(this.markerLayer, markers);
    keep(this.svg, sectors);
    this.root.classList.toggle('many', this.placements.length > 40);
    this.renderHandles();
  }

  positionMarker(marker, p) {
    marker.style.left = `${p.x * this.width}px`;
    marker.style.top = `${p.y * this.height}px`;
  }

  shapeSector(group, p) {
    const cx = p.x * this.width;
    const cy = p.y * this.height;
    group.firstChild.setAttribute('d', sectorPath(cx, cy, p.range * this.longSide, p.direction, p.fieldOfView));
    group.lastChild.setAttribute('cx', cx);
    group.lastChild.setAttribute('cy', cy);
  }

  /** Redraws one placement after a local change (a drag), without rebuilding the others. */
  renderPlacement(p) {
    const marker = this.markerLayer.querySelector(`.marker[data-placement-id="${p.id}"]`);
    const group = this.svg.querySelector(`g[data-placement-id="${p.id}"]`);
    if (marker) this.positionMarker(marker, p);
    if (group) this.shapeSector(group, p);
    if (p.id === this.selected) this.renderHandles();
  }

  renderHandles() {
    const p = this.editing && this.placements.find((item) => item.id === this.selected);
    this.handles.hidden = !p;
    if (!p) return;
    const cx = p.x * this.width;
    const cy = p.y * this.height;
    const r = p.range * this.longSide;
    const at = (degrees) => {
      const radians = (degrees * Math.PI) / 180;
      return [cx + r * Math.sin(radians), cy - r * Math.cos(radians)];
    };
    const [dx, dy] = at(p.direction);
    const [fx, fy] = at(p.direction + Math.min(p.fieldOfView, 359) / 2);
    const direction = this.handles.querySelector('.handle-direction');
    const fov = this.handles.querySelector('.handle-fov');
    direction.style.left = `${dx}px`;
    direction.style.top = `${dy}px`;
    fov.style.left = `${fx}px`;
    fov.style.top = `${fy}px`;
  }

  // ----- view transform -----

  fitToView() {
    const [w, h] = this.viewSize();
    if (!w || !h) return;
    const pad = 24;
    this.fit = Math.min((w - pad * 2) / this.width, (h - pad * 2) / this.height);
    if (!(this.fit > 0)) this.fit = 1;
    this.scale = this.fit;
    this.tx = (w - this.width * this.scale) / 2;
    this.ty = (h - this.height * this.scale) / 2;
    this.userMoved = false;
    this.apply();
  }

  /** Zooms by `factor` keeping the picture point under (x, y) (stage pixels) in place. */
  zoomAt(x, y, factor) {
    const next = Math.min(this.fit * maxZoom, Math.max(this.fit * minZoom, this.scale * factor));
    const applied = next / this.scale;
    this.tx = x - (x - this.tx) * applied;
    this.ty = y - (y - this.ty) * applied;
    this.scale = next;
    this.userMoved = true;
    this.schedule();
  }

  panBy(dx, dy) {
    this.tx += dx;
    this.ty += dy;
    this.userMoved = true;
    this.schedule();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.apply();
    });
  }

  apply() {
    this.world.style.transform = `translate3d(${this.tx}px, ${this.ty}px, 0) scale(${this.scale})`;
    // While fingers pinch, markers scale with the plan (the compositor only moves pixels); they are given
    // their size back when the pinch ends. Restyling 200 markers and their sectors every frame is what
    // makes a software-composited browser drop frames.
    if (this.gesture?.kind === 'pinch') return;
    const inverse = 1 / this.scale;
    if (inverse !== this.lastInverse) {
      this.world.style.setProperty('--inv', inverse);
      this.lastInverse = inverse;
      this.root.classList.toggle('zoomed', this.scale / this.fit > 1.6);
    }
  }

  /** Stage pixels → fractions of the picture. */
  toPlan(clientX, clientY) {
    const rect = this.root.getBoundingClientRect();
    return [(clientX - rect.left - this.tx) / this.scale / this.width, (clientY - rect.top - this.ty) / this.scale / this.height];
  }

  /** The view's state, for tests and the benchmark. */
  get view() {
    return { scale: this.scale, fit: this.fit, tx: this.tx, ty: this.ty };
  }

  // ----- gestures -----

  local(event) {
    const rect = this.root.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  }

  pointerDown(event) {
    if (event.target.closest('.plan-zoom')) return;
    if (event.button !== undefined && event.button > 0 && event.pointerType === 'mouse') return;
    this.pointers.set(event.pointerId, this.local(event));
    try { this.root.setPointerCapture(event.pointerId); } catch {}
    if (this.pointers.size === 2) {
      this.cancelLongPress();
      const [a, b] = [...this.pointers.values()];
      this.gesture = { kind: 'pinch', distance: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1,
        mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], scale: this.scale, tx: this.tx, ty: this.ty };
      return;
    }
    if (this.pointers.size > 2) return;
    const handle = event.target.closest('.plan-handle');
    const marker = event.target.closest('.marker');
    const [x, y] = this.local(event);
    if (handle && this.editing) {
      this.gesture = { kind: 'handle', which: handle.dataset.handle, placement: this.placements.find((p) => p.id === this.selected) };
      event.preventDefault();
      return;
    }
    this.gesture = { kind: 'press', start: [x, y], last: [x, y], marker, moved: false, longPressed: false };
    if (marker && !this.editing) {
      this.gesture.timer = setTimeout(() => {
        if (this.gesture?.kind === 'press' && !this.gesture.moved) {
          this.gesture.longPressed = true;
          marker.classList.add('pressed');
          setTimeout(() => marker.classList.remove('pressed'), 200);
          this.callbacks.onLongPress?.(this.placementOf(marker));
        }
      }, longPressMs);
    }
    event.preventDefault();
  }

  cancelLongPress() {
    if (this.gesture?.timer) clearTimeout(this.gesture.timer);
  }

  pointerMove(event) {
    if (!this.pointers.has(event.pointerId)) return;
    const point = this.local(event);
    this.pointers.set(event.pointerId, point);
    const g = this.gesture;
    if (!g) return;
    if (g.kind === 'pinch' && this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const distance = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const next = Math.min(this.fit * maxZoom, Math.max(this.fit * minZoom, g.scale * distance / g.distance));
      // The picture point under the first midpoint follows the fingers' midpoint.
      const wx = (g.mid[0] - g.tx) / g.scale;
      const wy = (g.mid[1] - g.ty) / g.scale;
      this.scale = next;
      this.tx = mid[0] - wx * next;
      this.ty = mid[1] - wy * next;
      this.userMoved = true;
      this.schedule();
      return;
    }
    if (g.kind === 'handle' && g.placement) {
      const p = g.placement;
      const [px, py] = this.toPlan(event.clientX, event.clientY);
      const dx = (px - p.x) * this.width;
      const dy = (py - p.y) * this.height;
      const angle = ((Math.atan2(dx, -dy) * 180) / Math.PI + 360) % 360;
      if (g.which === 'direction') {
        p.direction = Math.round(angle * 10) / 10 % 360;
        p.range = Math.min(1, Math.max(0.01, Math.hypot(dx, dy) / this.longSide));
      } else {
        let half = Math.abs(((angle - p.direction + 540) % 360) - 180);
        p.fieldOfView = Math.min(360, Math.max(1, Math.round(half * 2)));
      }
      g.changed = true;
      this.renderPlacement(p);
      this.callbacks.onEditing?.(p);
      return;
    }
    if (g.kind !== 'press') return;
    const dx = point[0] - g.last[0];
    const dy = point[1] - g.last[1];
    g.last = point;
    if (!g.moved && Math.hypot(point[0] - g.start[0], point[1] - g.start[1]) > tapSlop) {
      g.moved = true;
      this.cancelLongPress();
      if (g.marker && this.editing) {
        g.dragging = this.placementOf(g.marker);
        this.select(g.dragging?.id ?? null);
        this.callbacks.onSelect?.(g.dragging);
      }
    }
    if (!g.moved) return;
    if (g.dragging) {
      const [px, py] = this.toPlan(event.clientX, event.clientY);
      g.dragging.x = Math.min(1, Math.max(0, px));
      g.dragging.y = Math.min(1, Math.max(0, py));
      this.renderPlacement(g.dragging);
      this.callbacks.onEditing?.(g.dragging);
    } else {
      this.panBy(dx, dy);
    }
  }

  pointerUp(event, cancelled = false) {
    if (!this.pointers.has(event.pointerId)) return;
    this.pointers.delete(event.pointerId);
    const g = this.gesture;
    if (g?.kind === 'pinch') {
      this.gesture = null;
      this.apply(); // markers back to their size
      if (this.pointers.size === 1) {
        // One finger stays: it pans on from where it is.
        const [rest] = [...this.pointers.values()];
        this.gesture = { kind: 'press', start: rest, last: rest, marker: null, moved: true };
      } else if (this.pointers.size === 0) {
        this.gesture = null;
      }
      return;
    }
    if (this.pointers.size > 0) return;
    this.gesture = null;
    if (!g) return;
    this.cancelLongPress();
    if (cancelled) return;
    if (g.kind === 'handle' && g.changed && g.placement) {
      const p = g.placement;
      this.callbacks.onMove?.(p, { direction: p.direction, fieldOfView: p.fieldOfView, range: Math.round(p.range * 10000) / 10000 });
      return;
    }
    if (g.kind !== 'press') return;
    if (g.dragging) {
      const p = g.dragging;
      this.callbacks.onMove?.(p, { x: Math.round(p.x * 100000) / 100000, y: Math.round(p.y * 100000) / 100000 });
      return;
    }
    if (g.moved || g.longPressed) return;
    if (g.marker) {
      const placement = this.placementOf(g.marker);
      if (this.editing) {
        this.select(placement.id);
        this.callbacks.onSelect?.(placement);
      } else {
        this.callbacks.onTap?.(placement, g.marker);
      }
    } else {
      if (this.editing) {
        this.select(null);
        this.callbacks.onSelect?.(null);
      }
      this.callbacks.onBackground?.();
    }
  }

  wheel(event) {
    event.preventDefault();
    const [x, y] = this.local(event);
    if (event.ctrlKey || Math.abs(event.deltaY) >= Math.abs(event.deltaX)) {
      const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      this.zoomAt(x, y, Math.exp(-delta * (event.ctrlKey ? 0.01 : 0.0018)));
    } else {
      this.panBy(-event.deltaX, 0);
    }
  }

  /** Whether (clientX, clientY) is over the stage (for drops from the camera list). */
  contains(clientX, clientY) {
    const rect = this.root.getBoundingClientRect();
    return clientX >= rect.left && clientX <= rect.right && clientY >= rect.top && clientY <= rect.bottom;
  }
}

export const stateLabels = {
  live: 'Live', reconnecting: 'Reconnecting', failed: 'Failed', off: 'Off', idle: 'Standby',
};

/** The marker colour's state from the camera and the hub's status: live, reconnecting, failed, off, idle.
 *  The hub decides "failed" (`failedSince`): a watched stream down for a while, a wrong password, or an
 *  unwatched camera whose last health check failed. A stream that just lost its camera is amber. */
export function markerState(camera, status) {
  if (camera?.isActive === false) return 'off';
  if (status?.state === 'stopped') return 'off';
  if (status?.failedSince) return 'failed';
  switch (status?.state) {
    case 'live': return 'live';
    case 'connecting': case 'reconnecting': case 'frozen': case 'unreachable': return 'reconnecting';
    case 'authenticationFailed': case 'unsupportedCodec': case 'error': case 'limitReached': return 'failed';
    case 'stopped': return 'off';
    default: return 'idle';
  }
}
