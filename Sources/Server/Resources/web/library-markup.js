// The library view's markup (library.js fills and drives it): the camera picker and month calendar beside
// the player, its controls, the day timeline, the range form (export, protect) and the protected list.

import { icon } from './icons.js';

export function libraryMarkup() {
  return `
  <div class="lib-layout">
    <aside class="lib-side">
      <div class="field lib-camera-field">
        <label for="lib-camera">Camera</label>
        <select id="lib-camera" class="lib-select" aria-label="Camera"></select>
      </div>
      <details class="lib-calendar-box">
        <summary class="lib-day-summary">${icon('calendar')}<span class="lib-day-label"></span></summary>
        <div class="lib-calendar">
          <div class="cal-head">
            <button type="button" class="icon-btn" data-lib-action="prev-month" aria-label="Previous month">${icon('left')}</button>
            <h2 class="cal-title" aria-live="polite"></h2>
            <button type="button" class="icon-btn" data-lib-action="next-month" aria-label="Next month">${icon('right')}</button>
          </div>
          <div class="cal-grid" role="grid" aria-label="Days; marked days have footage"></div>
          <p class="cal-legend"><span class="cal-mark" aria-hidden="true"></span>Footage recorded</p>
        </div>
      </details>
      <a class="lib-storage-link" href="#storage">${icon('disk')}<span>Storage and retention</span></a>
    </aside>
    <section class="lib-main">
      <div class="lib-stage">
        <video class="lib-video" muted playsinline disablepictureinpicture></video>
        <div class="lib-veil" aria-live="polite"></div>
        <div class="lib-clock" aria-live="off" hidden><span class="lib-clock-time"></span><span class="lib-clock-date"></span></div>
      </div>
      <div class="lib-controls" role="toolbar" aria-label="Playback">
        <button type="button" class="icon-btn lib-btn" data-lib-action="previous" aria-label="Previous segment" title="Previous segment">${icon('skipBack')}</button>
        <button type="button" class="icon-btn lib-btn lib-play" data-lib-action="toggle" aria-label="Play" title="Play / pause (Space)">
          <span class="when-paused">${icon('play')}</span><span class="when-playing">${icon('pause')}</span></button>
        <button type="button" class="icon-btn lib-btn" data-lib-action="next" aria-label="Next segment" title="Next segment">${icon('skipForward')}</button>
        <div class="segmented lib-speed" role="radiogroup" aria-label="Speed">
          <label><input type="radio" name="lib-speed" value="1" checked><span>1×</span></label>
          <label><input type="radio" name="lib-speed" value="2"><span>2×</span></label>
          <label><input type="radio" name="lib-speed" value="4"><span>4×</span></label>
        </div>
        <span class="spacer"></span>
        <button type="button" class="icon-btn lib-btn" data-lib-action="zoom-out" aria-label="Zoom the timeline out" title="Zoom out (−)">${icon('zoomOut')}</button>
        <button type="button" class="icon-btn lib-btn" data-lib-action="zoom-in" aria-label="Zoom the timeline in" title="Zoom in (+)">${icon('zoomIn')}</button>
        <button type="button" class="btn btn-secondary lib-live" data-lib-action="live" title="Back to the live picture">${icon('live')}<span>Live</span></button>
      </div>
      <div class="lib-timeline-wrap">
        <div class="lib-timeline"></div>
        <p class="lib-timeline-hint">Click or tap to play from that moment · drag to select (on touch: hold, then drag) · wheel or pinch to zoom</p>
      </div>
      <form class="lib-range" novalidate>
        <div class="field lib-time">
          <label for="lib-from">From</label>
          <input id="lib-from" name="from" type="time" step="1" aria-describedby="lib-range-error">
        </div>
        <div class="field lib-time">
          <label for="lib-to">To</label>
          <input id="lib-to" name="to" type="time" step="1" aria-describedby="lib-range-error">
        </div>
        <span class="lib-range-length" aria-live="polite"></span>
        <div class="lib-range-actions">
          <button type="button" class="btn btn-primary" data-lib-action="export">${icon('download')}<span>Export MP4</span></button>
          <button type="button" class="btn btn-secondary" data-lib-action="protect">${icon('shield')}<span>Protect</span></button>
          <button type="button" class="btn btn-secondary lib-clear" data-lib-action="clear" aria-label="Clear the selection">${icon('close')}</button>
        </div>
        <p class="field-error lib-range-error" id="lib-range-error" hidden></p>
      </form>
      <section class="lib-protections" hidden>
        <h3>Protected on this day</h3>
        <ul class="lib-protection-list"></ul>
      </section>
    </section>
  </div>`;
}
