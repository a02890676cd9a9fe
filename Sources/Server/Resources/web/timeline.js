// The library's day timeline: one local day (24 h, 23 or 25 on a DST change) drawn on a canvas with the
// recorded spans, the gaps between them, protected ranges, a selected range and the playhead.
// Zoom with the wheel, a pinch or the +/− keys (down to 2 minutes across); pan with a horizontal wheel,
// Shift+wheel, one finger, or the arrow keys' cursor reaching the edge.
// Mouse and pen: a click plays from that moment, a drag selects a range. Touch: a tap plays, a drag
// pans, a press held for half a second then dragged selects. Keyboard (the timeline is a slider):
// ←/→ move the cursor 10 s (Shift: 1 min), PageUp/PageDown 10 min, Home/End, Enter or Space plays
// from the cursor, [ and ] set the selection's start and end, + and − zoom.

/** Segments closer than this are one continuous span (the API's rule: within 1 s). */
export const continuityMs = 1000;
const minWindowMs = 2 * 60 * 1000;
const holdMs = 450;
const tickSteps = [10e3, 15e3, 30e3, 60e3, 120e3, 300e3, 600e3, 900e3, 1800e3, 3600e3, 7200e3, 10800e3, 21600e3];

/** Merges segments (sorted by start) into continuous spans: [{startMs, endMs, segments}]. */
export function spansOf(segments, gap = continuityMs) {
  const spans = [];
  for (const segment of segments) {
    const last = spans[spans.length - 1];
    if (last && segment.startMs - last.endMs <= gap) {
      last.endMs = Math.max(last.endMs, segment.endMs);
      last.segments.push(segment);
    } else {
      spans.push({ startMs: segment.startMs, endMs: segment.endMs, segments: [segment] });
    }
  }
  return spans;
}

const pad = (n) => String(n).padStart(2, '0');
/** "14:05:09" in local time. */
export const clockText = (ms, seconds = true) => {
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}${seconds ? `:${pad(date.getSeconds())}` : ''}`;
};

export class Timeline {
  /** callbacks: onSeek(ms), onSelect({fromMs, toMs} | null), onCursor(ms) */
  constructor(root, callbacks) {
    this.root = root;
    this.callbacks = callbacks;
    this.dayStart = 0;
    this.dayEnd = 0;
    this.viewStart = 0;
    this.viewEnd = 0;
    this.spans = [];
    this.protections = [];
    this.selection = null;
    this.playhead = null;
    this.cursor = null;
    this.pointers = new Map();
    this.gesture = null;
    this.frame = 0;

    root.classList.add('timeline');
    root.tabIndex = 0;
    root.setAttribute('role', 'slider');
    root.setAttribute('aria-label', 'Day timeline: arrows move the cursor, Enter plays from it, [ and ] select a range, + and − zoom');
    root.innerHTML = '<canvas class="timeline-canvas" aria-hidden="true"></canvas><div class="timeline-hover" aria-hidden="true" hidden></div>';
    this.canvas = root.querySelector('canvas');
    this.hover = root.querySelector('.timeline-hover');

    new ResizeObserver(() => this.draw()).observe(root);
    // The colours come from CSS: a theme change repaints.
    new MutationObserver(() => this.draw()).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.draw());
    root.addEventListener('pointerdown', (event) => this.onPointerDown(event));
    root.addEventListener('pointermove', (event) => this.onPointerMove(event));
    root.addEventListener('pointerup', (event) => this.onPointerUp(event, true));
    root.addEventListener('pointercancel', (event) => this.onPointerUp(event, false));
    root.addEventListener('pointerleave', () => { if (!this.pointers.size) this.hover.hidden = true; });
    root.addEventListener('wheel', (event) => this.onWheel(event), { passive: false });
    root.addEventListener('keydown', (event) => this.onKey(event));
    root.addEventListener('focus', () => {
      if (this.cursor === null) this.setCursor(this.playhead ?? this.spans[this.spans.length - 1]?.endMs ?? this.viewStart);
      this.draw();
    });
    root.addEventListener('blur', () => this.draw());
    root.addEventListener('contextmenu', (event) => event.preventDefault());
  }

  // ----- state -----

  /** Shows the local day [startMs, endMs) whole. */
  setDay(startMs, endMs) {
    this.dayStart = startMs;
    this.dayEnd = endMs;
    this.viewStart = startMs;
    this.viewEnd = endMs;
    this.cursor = null;
    this.selection = null;
    this.draw();
  }

  setSegments(segments) {
    this.spans = spansOf(segments);
    this.draw();
  }

  setProtections(protections) {
    this.protections = protections;
    this.draw();
  }

  setSelection(selection) {
    this.selection = selection && selection.toMs > selection.fromMs ? selection : null;
    this.draw();
  }

  setPlayhead(ms) {
    if (ms === this.playhead) return;
    this.playhead = ms;
    // Playback that leaves the zoomed window takes the window along.
    if (ms !== null && !this.pointers.size && (ms < this.viewStart || ms > this.viewEnd) && ms >= this.dayStart && ms < this.dayEnd) {
      const width = this.viewEnd - this.viewStart;
      this.setView(ms - width * 0.1, ms + width * 0.9);
    }
    this.draw();
  }

  setCursor(ms) {
    this.cursor = Math.max(this.dayStart, Math.min(this.dayEnd, ms));
    this.root.setAttribute('aria-valuemin', String(this.dayStart));
    this.root.setAttribute('aria-valuemax', String(this.dayEnd));
    this.root.setAttribute('aria-valuenow', String(Math.round(this.cursor)));
    const span = this.spanAt(this.cursor);
    this.root.setAttribute('aria-valuetext', `${clockText(this.cursor)}, ${span ? 'recorded' : 'no footage'}`);
    if (this.cursor < this.viewStart || this.cursor > this.viewEnd) {
      const width = this.viewEnd - this.viewStart;
      this.setView(this.cursor - width / 2, this.cursor + width / 2);
    }
    this.callbacks.onCursor?.(this.cursor);
    this.draw();
  }

  spanAt(ms) {
    return this.spans.find((span) => ms >= span.startMs && ms < span.endMs) ?? null;
  }

  /** The window shown, kept inside the day and no narrower than 2 minutes. */
  setView(start, end) {
    const day = this.dayEnd - this.dayStart;
    let width = Math.max(Math.min(end - start, day), Math.min(minWindowMs, day));
    let from = start + (end - start - width) / 2;
    from = Math.max(this.dayStart, Math.min(this.dayEnd - width, from));
    this.viewStart = from;
    this.viewEnd = from + width;
    this.draw();
  }

  /** Zooms by `factor` (> 1 zooms in) keeping `atMs` where it is. */
  zoom(factor, atMs = (this.viewStart + this.viewEnd) / 2) {
    const width = (this.viewEnd - this.viewStart) / factor;
    const share = (atMs - this.viewStart) / (this.viewEnd - this.viewStart);
    this.setView(atMs - width * share, atMs - width * share + width);
  }

  /** Zooms to show [fromMs, toMs] with a little margin. */
  show(fromMs, toMs) {
    const margin = Math.max((toMs - fromMs) * 0.08, 30e3);
    this.setView(fromMs - margin, toMs + margin);
  }

  get zoomed() {
    return this.viewEnd - this.viewStart < this.dayEnd - this.dayStart - 1000;
  }

  // ----- geometry -----

  width() {
    return this.root.clientWidth;
  }

  xOf(ms) {
    return ((ms - this.viewStart) / (this.viewEnd - this.viewStart)) * this.width();
  }

  timeAt(clientX) {
    const rect = this.root.getBoundingClientRect();
    const share = Math.max(0, Math.min(1, (clientX - rect.left) / rect.width));
    return this.viewStart + share * (this.viewEnd - this.viewStart);
  }

  // ----- drawing -----

  draw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.paint();
    });
  }

  paint() {
    const canvas = this.canvas;
    const width = this.root.clientWidth;
    const height = this.root.clientHeight;
    if (!width || !height || this.viewEnd <= this.viewStart) return;
    const scale = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * scale) || canvas.height !== Math.round(height * scale)) {
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const style = getComputedStyle(this.root);
    const color = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    const track = { top: 22, bottom: height - 8 };
    const trackHeight = track.bottom - track.top;

    // The track (a gap is the track showing through), the future greyed.
    ctx.fillStyle = color('--tl-gap', '#e5e7eb');
    ctx.fillRect(0, track.top, width, trackHeight);
    const now = Date.now();
    if (now < this.viewEnd) {
      const x = Math.max(0, this.xOf(now));
      ctx.fillStyle = color('--tl-future', 'rgba(0,0,0,0.05)');
      ctx.fillRect(x, track.top, width - x, trackHeight);
    }

    // Ticks and their labels.
    const step = tickSteps.find((candidate) => (candidate / (this.viewEnd - this.viewStart)) * width >= (candidate < 60e3 ? 72 : 56)) ?? tickSteps[tickSteps.length - 1];
    ctx.font = '600 11px ' + (style.fontFamily || 'sans-serif');
    ctx.textBaseline = 'top';
    ctx.textAlign = 'center';
    const first = this.dayStart + Math.ceil((this.viewStart - this.dayStart) / step) * step;
    for (let ms = first; ms <= this.viewEnd; ms += step) {
      const x = Math.round(this.xOf(ms)) + 0.5;
      ctx.fillStyle = color('--tl-tick', 'rgba(0,0,0,0.25)');
      ctx.fillRect(x - 0.5, track.top - 5, 1, 5);
      if (x > 14 && x < width - 14) {
        ctx.fillStyle = color('--tl-label', '#6b7382');
        ctx.fillText(clockText(ms, step < 60e3), x, 4);
      }
    }

    // Recorded spans.
    ctx.fillStyle = color('--tl-span', '#2563eb');
    for (const span of this.spans) {
      if (span.endMs < this.viewStart || span.startMs > this.viewEnd) continue;
      const x0 = Math.max(0, this.xOf(span.startMs));
      const x1 = Math.min(width, this.xOf(span.endMs));
      ctx.fillRect(x0, track.top, Math.max(1.5, x1 - x0), trackHeight);
    }

    // Protected ranges: a band along the top of the track.
    ctx.fillStyle = color('--tl-protected', '#d97706');
    for (const item of this.protections) {
      if (item.toMs < this.viewStart || item.fromMs > this.viewEnd) continue;
      const x0 = Math.max(0, this.xOf(item.fromMs));
      const x1 = Math.min(width, this.xOf(item.toMs));
      ctx.fillRect(x0, track.top, Math.max(2, x1 - x0), 6);
    }

    // The selection.
    if (this.selection) {
      const x0 = this.xOf(this.selection.fromMs);
      const x1 = this.xOf(this.selection.toMs);
      ctx.fillStyle = color('--tl-selection', 'rgba(250,204,21,0.35)');
      ctx.fillRect(x0, track.top - 4, Math.max(2, x1 - x0), trackHeight + 8);
      ctx.fillStyle = color('--tl-selection-edge', '#ca8a04');
      ctx.fillRect(x0 - 1, track.top - 6, 2, trackHeight + 12);
      ctx.fillRect(x1 - 1, track.top - 6, 2, trackHeight + 12);
    }

    // The keyboard cursor, while focused.
    if (this.cursor !== null && document.activeElement === this.root) {
      const x = Math.round(this.xOf(this.cursor)) + 0.5;
      ctx.strokeStyle = color('--tl-cursor', '#111827');
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(x, track.top - 6);
      ctx.lineTo(x, height);
      ctx.stroke();
      ctx.setLineDash([]);
    }

    // The playhead.
    if (this.playhead !== null && this.playhead >= this.viewStart && this.playhead <= this.viewEnd) {
      const x = this.xOf(this.playhead);
      ctx.fillStyle = color('--tl-playhead', '#dc2626');
      ctx.fillRect(Math.round(x) - 1, track.top - 8, 2, trackHeight + 12);
      ctx.beginPath();
      ctx.moveTo(x - 5, track.top - 10);
      ctx.lineTo(x + 5, track.top - 10);
      ctx.lineTo(x, track.top - 3);
      ctx.closePath();
      ctx.fill();
    }
    this.root.dataset.view = `${Math.round(this.viewStart)}-${Math.round(this.viewEnd)}`;
  }

  // ----- pointer input -----

  onPointerDown(event) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    this.root.setPointerCapture?.(event.pointerId);
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY, type: event.pointerType });
    clearTimeout(this.gesture?.timer);
    if (this.pointers.size === 2) {
      // Two fingers: pinch to zoom, move to pan.
      const [a, b] = [...this.pointers.values()];
      this.gesture = { kind: 'pinch', distance: Math.abs(a.x - b.x) || 1, center: this.timeAt((a.x + b.x) / 2),
        width: this.viewEnd - this.viewStart, share: ((a.x + b.x) / 2 - this.root.getBoundingClientRect().left) / this.width() };
      return;
    }
    if (this.pointers.size > 2) return;
    const ms = this.timeAt(event.clientX);
    this.gesture = { kind: 'press', type: event.pointerType, x: event.clientX, startMs: ms, viewStart: this.viewStart, moved: false, timer: 0 };
    if (event.pointerType === 'touch') {
      this.gesture.timer = setTimeout(() => {
        if (this.gesture?.kind === 'press' && !this.gesture.moved) {
          this.gesture.kind = 'select';
          navigator.vibrate?.(10);
          this.setSelection({ fromMs: ms, toMs: ms + 1 });
        }
      }, holdMs);
    }
  }

  onPointerMove(event) {
    if (!this.pointers.size) {
      if (event.pointerType === 'mouse') this.showHover(event.clientX);
      return;
    }
    const pointer = this.pointers.get(event.pointerId);
    if (!pointer) return;
    pointer.x = event.clientX;
    pointer.y = event.clientY;
    const gesture = this.gesture;
    if (!gesture) return;
    if (gesture.kind === 'pinch' && this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const distance = Math.abs(a.x - b.x) || 1;
      const width = gesture.width * (gesture.distance / distance);
      const share = ((a.x + b.x) / 2 - this.root.getBoundingClientRect().left) / this.width();
      this.setView(gesture.center - width * share, gesture.center - width * share + width);
      return;
    }
    const distance = Math.abs(event.clientX - gesture.x);
    if (gesture.kind === 'press' && distance > 6) {
      gesture.moved = true;
      clearTimeout(gesture.timer);
      gesture.kind = gesture.type === 'touch' ? 'pan' : 'select';
    }
    if (gesture.kind === 'pan') {
      const msPerPixel = (this.viewEnd - this.viewStart) / this.width();
      const start = gesture.viewStart - (event.clientX - gesture.x) * msPerPixel;
      this.setView(start, start + (this.viewEnd - this.viewStart));
    } else if (gesture.kind === 'select') {
      const ms = this.timeAt(event.clientX);
      this.setSelection({ fromMs: Math.min(ms, gesture.startMs), toMs: Math.max(ms, gesture.startMs) });
      this.showHover(event.clientX);
    }
  }

  onPointerUp(event, commit) {
    if (!this.pointers.has(event.pointerId)) return;
    this.pointers.delete(event.pointerId);
    const gesture = this.gesture;
    if (!gesture) return;
    if (gesture.kind === 'pinch') {
      if (!this.pointers.size) this.gesture = null;
      else this.gesture = { kind: 'done' };
      return;
    }
    if (this.pointers.size) return;
    clearTimeout(gesture.timer);
    this.gesture = null;
    if (!commit || gesture.kind === 'done') return;
    if (gesture.kind === 'press') {
      const ms = this.timeAt(event.clientX);
      this.cursor = ms;
      this.callbacks.onSeek(ms);
    } else if (gesture.kind === 'select') {
      if (this.selection && this.selection.toMs - this.selection.fromMs >= 1000) this.callbacks.onSelect(this.selection);
      else {
        this.setSelection(null);
        this.callbacks.onSelect(null);
      }
    }
  }

  showHover(clientX) {
    const ms = this.timeAt(clientX);
    const rect = this.root.getBoundingClientRect();
    this.hover.hidden = false;
    this.hover.textContent = clockText(ms);
    this.hover.style.left = `${Math.max(28, Math.min(rect.width - 28, clientX - rect.left))}px`;
  }

  onWheel(event) {
    event.preventDefault();
    const dx = event.deltaX || (event.shiftKey ? event.deltaY : 0);
    if (dx) {
      const msPerPixel = (this.viewEnd - this.viewStart) / this.width();
      this.setView(this.viewStart + dx * msPerPixel, this.viewEnd + dx * msPerPixel);
      return;
    }
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
    this.zoom(Math.exp(-event.deltaY * unit * 0.0025), this.timeAt(event.clientX));
  }

  // ----- keyboard -----

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const cursor = this.cursor ?? this.viewStart;
    const moves = { ArrowLeft: -10e3, ArrowRight: 10e3, PageUp: -600e3, PageDown: 600e3 };
    if (moves[event.key] !== undefined) {
      this.setCursor(cursor + moves[event.key] * (event.shiftKey && Math.abs(moves[event.key]) < 60e3 ? 6 : 1));
    } else if (event.key === 'Home') {
      this.setCursor(this.spans[0]?.startMs ?? this.dayStart);
    } else if (event.key === 'End') {
      this.setCursor(this.spans[this.spans.length - 1]?.endMs ?? this.dayEnd);
    } else if (event.key === 'Enter' || event.key === ' ') {
      this.callbacks.onSeek(cursor);
    } else if (event.key === '[' || event.key === ']') {
      const current = this.selection ?? { fromMs: cursor, toMs: cursor };
      const next = event.key === '[' ? { fromMs: cursor, toMs: Math.max(cursor + 1000, current.toMs) }
        : { fromMs: Math.min(current.fromMs, cursor - 1000), toMs: cursor };
      this.setSelection(next);
      this.callbacks.onSelect(this.selection);
    } else if (event.key === '+' || event.key === '=') {
      this.zoom(2, cursor);
    } else if (event.key === '-' || event.key === '_') {
      this.zoom(0.5, cursor);
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  }
}
