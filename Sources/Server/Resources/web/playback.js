// Playback of recorded footage through Media Source Extensions: a segment's fMP4 from
// GET /api/recordings/{id}/media?from=… (init segment + fragments from the keyframe at or before that
// time), then the following segments whole, in order, appended as their bytes arrive.
//
// Every segment is placed on one presentation timeline whose zero is the wall time of the first frame
// served: timestampOffset = (X-WatchBox-Start − origin) − X-WatchBox-Media-Start, so a media time t
// on screen is the wall time origin + t (RECORDING-API.md: wall(t) = Start + (t − Media-Start)).
// A gap between segments is a gap in the buffered ranges; the player jumps over it.

import { mediaURL } from './api.js';

const MediaSourceClass = window.ManagedMediaSource || window.MediaSource || null;
/** Seconds of media kept buffered ahead of the playhead, per 1× of speed. */
const aheadSeconds = 12;
/** Seconds kept behind the playhead (older media is removed, so memory stays bounded). */
const behindSeconds = 20;

/**
 * One recording player on a <video>. States (`player.state`): idle, loading, playing, paused,
 * waiting (buffering), ended (no more footage), failed (`player.error` says why).
 * callbacks: onState(state), onTime(wallMs) — at most every frame, next(segment) → the segment after
 * `segment` (or a promise of it, or null).
 */
export class RecordingPlayer {
  constructor(video, callbacks) {
    this.video = video;
    this.callbacks = callbacks;
    this.state = 'idle';
    this.error = null;
    this.session = null;
    this.rate = 1;
    this.wantPlaying = true;
    video.muted = true;
    video.playsInline = true;
    video.setAttribute('playsinline', '');
    // The clock follows the frames actually presented (requestVideoFrameCallback's mediaTime), not the
    // playhead the decoder is heading for; browsers without it use timeupdate and animation frames.
    this.frameCallbacks = 'requestVideoFrameCallback' in video;
    this.onFrame = () => { if (!this.frameCallbacks) this.reportTime(); };
    video.addEventListener('timeupdate', this.onFrame);
    video.addEventListener('playing', () => this.setState('playing'));
    video.addEventListener('pause', () => { if (this.session && !this.wantPlaying) this.setState('paused'); });
    video.addEventListener('waiting', () => { if (this.session) { this.setState('waiting'); this.skipGap(); } });
    video.addEventListener('error', () => {
      if (this.session) this.fail(`The browser could not decode this footage (${video.error?.message || 'media error'}).`);
    });
    this.timer = setInterval(() => this.tick(), 250);
    if (this.frameCallbacks) {
      const presented = (now, metadata) => {
        if (this.destroyed) return;
        if (this.session?.started) this.reportTime(metadata.mediaTime);
        video.requestVideoFrameCallback(presented);
      };
      video.requestVideoFrameCallback(presented);
    } else {
      const frame = () => {
        if (this.session && !video.paused) this.reportTime();
        this.raf = requestAnimationFrame(frame);
      };
      this.raf = requestAnimationFrame(frame);
    }
  }

  /** The wall time (ms) of the frame on screen (of the playhead when no frame was presented yet), or null. */
  get wallTime() {
    const session = this.session;
    if (!session || session.origin === null || !session.started) return null;
    if (session.presented !== null && session.presented !== undefined && Math.abs(session.presented - this.video.currentTime) < 0.5) {
      return session.origin + session.presented * 1000;
    }
    return session.origin + this.video.currentTime * 1000;
  }

  get segment() {
    return this.session?.current ?? null;
  }

  /**
   * Plays from `wallMs` inside `segment`. When that moment is already buffered in this session, it
   * only seeks; otherwise a new session starts.
   */
  playFrom(segment, wallMs) {
    const session = this.session;
    if (session && session.origin !== null && session.started) {
      const t = (wallMs - session.origin) / 1000;
      const ranges = session.sourceBuffer?.buffered;
      for (let i = 0; ranges && i < ranges.length; i += 1) {
        if (t >= ranges.start(i) && t < ranges.end(i) - 0.1) {
          this.video.currentTime = t;
          session.target = null;
          this.resume();
          return;
        }
      }
    }
    this.startSession(segment, wallMs);
  }

  startSession(segment, wallMs) {
    this.stop();
    if (!MediaSourceClass) {
      this.fail('This browser has no Media Source Extensions, so it cannot play recordings. Use a current Safari, Chrome, Edge or Firefox.');
      return;
    }
    const mediaSource = new MediaSourceClass();
    const session = {
      mediaSource, sourceBuffer: null, origin: null, target: wallMs, started: false, queue: [],
      current: segment, fetching: false, last: segment, retryAt: 0, presented: null, abort: new AbortController(), url: null,
    };
    this.session = session;
    this.error = null;
    this.wantPlaying = true;
    this.setState('loading');
    session.url = URL.createObjectURL(mediaSource);
    if (window.ManagedMediaSource && mediaSource instanceof window.ManagedMediaSource) this.video.disableRemotePlayback = true;
    mediaSource.addEventListener('sourceopen', () => {
      if (this.session !== session) return;
      this.load(session, segment, wallMs);
    }, { once: true });
    this.video.src = session.url;
  }

  /** Fetches one segment's media (from `fromMs`, or whole) and appends it as it arrives. */
  async load(session, segment, fromMs = null) {
    session.fetching = true;
    try {
      const response = await fetch(mediaURL(segment.id, fromMs), { signal: session.abort.signal, cache: 'no-store' });
      if (this.session !== session) return;
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        throw new Error(body?.error || `WatchBox answered ${response.status} for this recording.`);
      }
      const start = Date.parse(response.headers.get('X-WatchBox-Start') || segment.start);
      const mediaStart = parseFloat(response.headers.get('X-WatchBox-Media-Start') || '0') || 0;
      const codec = response.headers.get('X-WatchBox-Codec') || 'video/mp4; codecs="avc1.640028"';
      if (!session.sourceBuffer) {
        if (!MediaSourceClass.isTypeSupported(codec)) {
          throw new Error(`This browser can’t play this recording’s format (${codec}). Safari plays H.265; other browsers need H.264.`);
        }
        session.sourceBuffer = session.mediaSource.addSourceBuffer(codec);
        session.sourceBuffer.mode = 'segments';
        session.codec = codec;
        session.origin = start;
      } else if (codec !== session.codec && session.sourceBuffer.changeType) {
        await this.idle(session);
        session.sourceBuffer.changeType(codec);
        session.codec = codec;
      }
      await this.idle(session);
      session.sourceBuffer.timestampOffset = (start - session.origin) / 1000 - mediaStart;
      session.last = segment;
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.session !== session) break;
        await this.append(session, value);
        if (!session.started) this.begin(session);
      }
    } catch (error) {
      if (this.session !== session || error.name === 'AbortError') return;
      this.fail(error.message);
    } finally {
      session.fetching = false;
    }
  }

  /** Waits until the source buffer has finished its current operation. */
  idle(session) {
    const buffer = session.sourceBuffer;
    if (!buffer || !buffer.updating) return Promise.resolve();
    return new Promise((resolve) => buffer.addEventListener('updateend', resolve, { once: true }));
  }

  async append(session, bytes) {
    for (let attempt = 0; ; attempt += 1) {
      await this.idle(session);
      if (this.session !== session) return;
      try {
        session.sourceBuffer.appendBuffer(bytes);
        await this.idle(session);
        return;
      } catch (error) {
        if (error.name !== 'QuotaExceededError' || attempt > 20) throw error;
        // Full: drop what was already watched, or wait for the playhead to move on.
        if (!this.trim(session, 2)) await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /** The first bytes are in: seek to the moment asked for and play. */
  begin(session) {
    const ranges = session.sourceBuffer.buffered;
    if (!ranges.length) return;
    const target = Math.max(ranges.start(0), (session.target - session.origin) / 1000);
    if (target > ranges.end(ranges.length - 1) && !session.fetching) return;
    session.started = true;
    this.video.currentTime = target;
    this.video.playbackRate = this.rate;
    if (this.wantPlaying) this.video.play().catch(() => {});
    if (!this.frameCallbacks) this.reportTime();
  }

  /** Fetches the next segment when the buffer ahead runs low; jumps gaps; trims what was watched. */
  async tick() {
    const session = this.session;
    if (!session || !session.sourceBuffer) return;
    if (!session.started) {
      if (session.sourceBuffer.buffered.length) this.begin(session);
      return;
    }
    this.skipGap();
    const ranges = session.sourceBuffer.buffered;
    const end = ranges.length ? ranges.end(ranges.length - 1) : 0;
    const ahead = end - this.video.currentTime;
    if (!session.fetching && !(session.retryAt > performance.now()) && ahead < aheadSeconds * Math.max(1, this.rate)) {
      session.fetching = true;
      let next = null;
      try {
        next = await this.callbacks.next(session.last);
      } catch {
        next = null;
      }
      if (this.session !== session) return;
      if (next) {
        session.retryAt = 0;
        this.load(session, next);
      } else {
        session.fetching = false;
        // Nothing after this segment yet: look again later (footage being recorded now grows).
        session.retryAt = performance.now() + 3000;
      }
    }
    if (session.retryAt && !session.fetching && ahead < 0.5 && this.wantPlaying) this.setState('ended');
    this.trim(session, behindSeconds);
    this.updateCurrent();
  }

  /** When the playhead sits in a gap between buffered ranges, moves it to the next range. */
  skipGap() {
    const session = this.session;
    const ranges = session?.sourceBuffer?.buffered;
    if (!ranges || !ranges.length || !session.started) return;
    const t = this.video.currentTime;
    // Decoders stop a little before a range's end (the last frame's duration): a playhead that no
    // longer moves near the end of a range, with another range after it, is at a gap too.
    const stuck = t === this.lastGapCheck && !this.video.paused;
    this.lastGapCheck = t;
    for (let i = 0; i < ranges.length; i += 1) {
      if (t >= ranges.start(i) && t < ranges.end(i)) {
        if (!(stuck && ranges.end(i) - t < 0.5 && i + 1 < ranges.length)) return;
        continue;
      }
      if (ranges.start(i) > t) {
        this.video.currentTime = ranges.start(i) + 0.001;
        return;
      }
    }
  }

  trim(session, behind) {
    const buffer = session.sourceBuffer;
    if (!buffer || buffer.updating || !buffer.buffered.length) return false;
    const start = buffer.buffered.start(0);
    const cutoff = this.video.currentTime - behind;
    if (cutoff - start < 1) return false;
    try {
      buffer.remove(start, cutoff);
      return true;
    } catch {
      return false;
    }
  }

  /** Which segment the frame on screen belongs to (the callback knows the list). */
  updateCurrent() {
    const wall = this.wallTime;
    if (wall === null) return;
    const current = this.callbacks.segmentAt?.(wall);
    if (current) this.session.current = current;
  }

  /** Tells the page the wall time on screen; `mediaTime` is the presented frame's, when known. */
  reportTime(mediaTime = null) {
    if (mediaTime !== null && this.session) this.session.presented = mediaTime;
    const wall = this.wallTime;
    if (wall !== null) this.callbacks.onTime?.(wall);
  }

  pause() {
    this.wantPlaying = false;
    this.video.pause();
    if (this.session) this.setState('paused');
  }

  resume() {
    this.wantPlaying = true;
    if (this.session?.started) this.video.play().catch(() => {});
  }

  setRate(rate) {
    this.rate = rate;
    this.video.playbackRate = rate;
  }

  stop() {
    const session = this.session;
    this.session = null;
    if (!session) return;
    session.abort.abort();
    this.video.removeAttribute('src');
    this.video.load();
    if (session.url) URL.revokeObjectURL(session.url);
    this.setState('idle');
  }

  fail(message) {
    this.stop();
    this.error = message;
    this.setState('failed');
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.callbacks.onState?.(state);
  }

  destroy() {
    this.destroyed = true;
    this.stop();
    clearInterval(this.timer);
    cancelAnimationFrame(this.raf);
    this.video.removeEventListener('timeupdate', this.onFrame);
  }
}
