// The live player: fragmented MP4 from the camera's WebSocket into a <video> through Media Source
// Extensions (ManagedMediaSource on iPhone Safari 17.1+), kept within about a second of live.
//
// Server → browser: {"type":"init", mimeType, codec, width, height} then the initialization segment
// (binary); then one moof+mdat per frame (binary); {"type":"status", status}; {"type":"error", error}.
// Browser → server: {"type":"pause"} / {"type":"resume"}.

const MediaSourceClass = window.ManagedMediaSource || window.MediaSource || null;
const isManaged = Boolean(window.ManagedMediaSource) && MediaSourceClass === window.ManagedMediaSource;

/** Whether this browser can play `mimeType` through MSE (H.265 is missing from most browsers). */
export function canPlay(mimeType) {
  if (!MediaSourceClass) return false;
  try {
    return MediaSourceClass.isTypeSupported(mimeType);
  } catch {
    return false;
  }
}

export const mediaSourceAvailable = Boolean(MediaSourceClass);

/** Playback further than this behind the newest frame jumps to the live edge (seconds). */
const maxLag = 1.5;
/** Where a jump lands, behind the newest frame: a little slack so the decoder does not starve. */
const jumpSlack = 0.25;
/** Above this lag, play slightly faster to catch up smoothly. */
const catchUpLag = 0.6;
/** Buffer kept behind the playhead; older media is removed so memory stays bounded. */
const keepBehind = 4;
/** Queued fragments beyond this (about 3 s at 25 fps) are dropped; playback resumes at a keyframe. */
const maxQueue = 75;
/** Reconnect delays in ms (with ±20 % jitter), the last one repeated. */
const backoff = [500, 1000, 2000, 4000, 8000, 10000];
/** A paused player closes its socket after this long, so the camera's upstream can stop. */
const closePausedAfter = 60000;

/**
 * Whether an fMP4 fragment (moof+mdat) starts with a sync sample, from its first sample's flags
 * (ISO/IEC 14496-12 §8.8.8 trun first_sample_flags / sample_flags, §8.8.7 tfhd
 * default_sample_flags; §8.8.3.1: sample_is_non_sync_sample is bit 16). Every track fragment must
 * start with one. When no flags are present it answers true (nothing says otherwise).
 */
export function startsWithKeyframe(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = (at) => String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
  const children = (start, end, visit) => {
    let at = start;
    while (at + 8 <= end) {
      const size = view.getUint32(at);
      if (size < 8 || at + size > end) return;
      visit(type(at), at, at + size);
      at += size;
    }
  };
  let keyframe = true;
  children(0, bytes.byteLength, (kind, start, end) => {
    if (kind !== 'moof') return;
    children(start + 8, end, (trafKind, trafStart, trafEnd) => {
      if (trafKind !== 'traf') return;
      let defaultFlags = null;
      let firstFlags = null;
      children(trafStart + 8, trafEnd, (box, boxStart) => {
        const flags = view.getUint32(boxStart + 8) & 0xffffff;
        if (box === 'tfhd') {
          let at = boxStart + 16; // after version/flags and track_ID
          if (flags & 0x01) at += 8; // base_data_offset
          if (flags & 0x02) at += 4; // sample_description_index
          if (flags & 0x08) at += 4; // default_sample_duration
          if (flags & 0x10) at += 4; // default_sample_size
          if (flags & 0x20) defaultFlags = view.getUint32(at);
        } else if (box === 'trun') {
          let at = boxStart + 16; // after version/flags and sample_count
          if (flags & 0x01) at += 4; // data_offset
          if (flags & 0x04) {
            firstFlags = view.getUint32(at);
          } else if (flags & 0x400) {
            if (flags & 0x100) at += 4; // sample_duration
            if (flags & 0x200) at += 4; // sample_size
            firstFlags = view.getUint32(at);
          }
        }
      });
      const sampleFlags = firstFlags ?? defaultFlags;
      if (sampleFlags !== null && (sampleFlags & 0x10000) !== 0) keyframe = false;
    });
  });
  return keyframe;
}

/**
 * One live view of one camera. States (`player.state`):
 *   idle, connecting (socket opening), waiting (socket open, no video yet: the camera is connecting),
 *   buffering (video format known, first frames on the way), playing, stalled (no progress for 3 s),
 *   paused (off-screen or hidden), offline (socket dropped, retrying), unsupported (this browser
 *   cannot play the codec), failed (the server refused: `player.error` says why).
 * Callbacks: onState(state), onStatus(status) for the server's status messages, onInit(info).
 */
export class LivePlayer {
  constructor(video, { url, onState = () => {}, onStatus = () => {}, onInit = () => {} }) {
    this.video = video;
    this.url = url;
    this.onState = onState;
    this.onStatus = onStatus;
    this.onInit = onInit;
    this.state = 'idle';
    this.error = null;
    this.info = null;
    this.started = false;
    this.paused = false;
    this.ws = null;
    this.retries = 0;
    this.retryAt = 0;
    this.mediaSource = null;
    this.sourceBuffer = null;
    this.mimeType = null;
    this.queue = [];
    this.pendingInit = null;
    this.needKeyframe = true;
    this.quotaHits = 0;
    this.orphans = 0;
    this.reopens = 0;
    this.lastTime = 0;
    this.lastProgress = 0;
    this.timers = { retry: 0, close: 0, tick: 0 };

    video.muted = true;
    video.defaultMuted = true;
    video.playsInline = true;
    video.autoplay = true;
    video.disableRemotePlayback = true;
    video.setAttribute('muted', '');
    video.setAttribute('playsinline', '');
    video.setAttribute('webkit-playsinline', '');
    video.setAttribute('disableremoteplayback', '');
    this.onVideoError = () => this.recover();
    this.onTimeUpdate = () => this.progress();
    video.addEventListener('error', this.onVideoError);
    video.addEventListener('timeupdate', this.onTimeUpdate);
  }

  /** Opens the stream (again). */
  start() {
    this.started = true;
    this.paused = false;
    this.error = null;
    clearInterval(this.timers.tick);
    this.timers.tick = setInterval(() => this.tick(), 1000);
    this.connect();
  }

  /** Tries at once instead of waiting out the backoff (e.g. the camera came back). */
  kick() {
    if (!this.started || this.paused) return;
    if (this.state === 'failed' || this.state === 'offline') {
      this.retries = 0;
      this.error = null;
      this.connect();
    }
  }

  /** Ends the view: closes the socket and releases the media. */
  stop() {
    this.started = false;
    clearInterval(this.timers.tick);
    clearTimeout(this.timers.retry);
    clearTimeout(this.timers.close);
    this.closeSocket();
    this.teardownMedia();
    this.setState('idle');
  }

  /** Stops the player for good, including its listeners. */
  destroy() {
    this.stop();
    this.video.removeEventListener('error', this.onVideoError);
    this.video.removeEventListener('timeupdate', this.onTimeUpdate);
  }

  /** Off-screen or hidden: ask the server to stop sending; resuming restarts at a keyframe. */
  setPaused(paused) {
    if (!this.started || this.paused === paused) return;
    this.paused = paused;
    if (paused) {
      this.send({ type: 'pause' });
      this.queue = this.queue.filter((chunk) => chunk.isInit);
      this.needKeyframe = true;
      this.video.pause();
      this.setState('paused');
      clearTimeout(this.timers.close);
      this.timers.close = setTimeout(() => this.closeSocket(), closePausedAfter);
    } else {
      clearTimeout(this.timers.close);
      if (this.ws && this.ws.readyState <= WebSocket.OPEN) {
        this.send({ type: 'resume' });
        this.setState(this.sourceBuffer ? 'buffering' : 'waiting');
      } else if (this.state !== 'unsupported') {
        this.connect();
      }
    }
  }

  // ----- socket -----

  connect() {
    clearTimeout(this.timers.retry);
    if (!this.started || this.paused) return;
    this.closeSocket();
    this.setState('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    this.pendingInit = null;
    this.orphans = 0;
    ws.addEventListener('open', () => {
      if (this.ws === ws && this.state === 'connecting') this.setState('waiting');
    });
    ws.addEventListener('message', (event) => {
      if (this.ws === ws) this.receive(event.data);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.started || this.paused) return;
      if (this.state === 'failed') {
        this.scheduleRetry(15000);
      } else if (this.state !== 'unsupported') {
        this.scheduleRetry();
      }
    });
  }

  /** Opens a new socket without telling the viewer the connection dropped (it did not). */
  reopen() {
    this.orphans = 0;
    this.closeSocket();
    clearTimeout(this.timers.retry);
    const delay = backoff[Math.min(this.reopens, backoff.length - 1)];
    this.reopens += 1;
    this.timers.retry = setTimeout(() => this.connect(), delay);
  }

  scheduleRetry(fixedDelay) {
    clearTimeout(this.timers.retry);
    const base = fixedDelay ?? backoff[Math.min(this.retries, backoff.length - 1)];
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.retries += 1;
    this.retryAt = Date.now() + delay;
    if (this.state !== 'failed') this.setState('offline');
    this.timers.retry = setTimeout(() => this.connect(), delay);
  }

  closeSocket() {
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000);
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  receive(data) {
    if (typeof data === 'string') {
      let message;
      try {
        message = JSON.parse(data);
      } catch {
        return;
      }
      if (message.type === 'init') {
        this.pendingInit = message;
      } else if (message.type === 'status' && message.status) {
        this.onStatus(message.status);
      } else if (message.type === 'error') {
        this.error = message.error || 'The server refused to play this camera.';
        this.setState('failed');
      }
      return;
    }
    const bytes = new Uint8Array(data);
    if (this.pendingInit) {
      const info = this.pendingInit;
      this.pendingInit = null;
      this.retries = 0;
      this.reopens = 0;
      this.applyInit(info, bytes);
      return;
    }
    if (!this.mimeType) {
      // Video before any init message cannot be decoded: ask again, and the answer starts with one.
      if (!this.paused && this.state !== 'unsupported' && ++this.orphans >= 5) this.reopen();
      return;
    }
    if (this.paused) return;
    if (this.needKeyframe) {
      if (!startsWithKeyframe(bytes)) return;
      this.needKeyframe = false;
    }
    if (this.queue.length >= maxQueue) {
      // The browser is not keeping up: drop what waits and start again at the next keyframe.
      this.queue = this.queue.filter((chunk) => chunk.isInit);
      if (!startsWithKeyframe(bytes)) {
        this.needKeyframe = true;
        return;
      }
    }
    this.queue.push(bytes);
    this.pump();
  }

  // ----- media -----

  applyInit(info, segment) {
    this.info = info;
    this.onInit(info);
    if (!canPlay(info.mimeType)) {
      this.mimeType = null;
      this.teardownMedia();
      this.setState('unsupported');
      this.closeSocket();
      return;
    }
    segment.isInit = true;
    this.needKeyframe = true;
    const open = this.mediaSource?.readyState === 'open' && this.sourceBuffer;
    if (open && info.mimeType === this.mimeType) {
      // Same codec (perhaps a new resolution): a new initialization segment in the same buffer.
      this.queue = [segment];
      this.pump();
    } else {
      this.rebuild(info.mimeType, segment);
    }
    if (this.state !== 'playing') this.setState('buffering');
  }

  /** A new MediaSource and SourceBuffer for `mimeType`, fed `segment` first. */
  rebuild(mimeType, segment) {
    this.teardownMedia();
    const mediaSource = new MediaSourceClass();
    this.mediaSource = mediaSource;
    this.mimeType = mimeType;
    this.queue = [segment];
    const url = URL.createObjectURL(mediaSource);
    mediaSource.addEventListener('sourceopen', () => {
      URL.revokeObjectURL(url);
      if (this.mediaSource !== mediaSource) return;
      let sourceBuffer;
      try {
        sourceBuffer = mediaSource.addSourceBuffer(mimeType);
        // Live video: each fragment follows the previous one whatever its timestamps say, so a
        // camera reconnect or a resume that moves the clock cannot leave a gap or an overlap.
        sourceBuffer.mode = 'sequence';
      } catch (error) {
        this.error = `This browser refused the video format (${error.message}).`;
        this.setState('unsupported');
        this.closeSocket();
        return;
      }
      sourceBuffer.addEventListener('updateend', () => this.pump());
      this.sourceBuffer = sourceBuffer;
      this.pump();
    }, { once: true });
    this.video.src = url;
  }

  teardownMedia() {
    this.sourceBuffer = null;
    const mediaSource = this.mediaSource;
    this.mediaSource = null;
    this.mimeType = null;
    this.queue = [];
    if (mediaSource) {
      try {
        if (mediaSource.readyState === 'open') mediaSource.endOfStream();
      } catch {
        // already ending
      }
      this.video.removeAttribute('src');
      this.video.load();
    }
  }

  /** Appends the next queued chunk, or trims old media, whenever the SourceBuffer is idle. */
  pump() {
    const sourceBuffer = this.sourceBuffer;
    if (!sourceBuffer || sourceBuffer.updating || this.mediaSource?.readyState !== 'open') return;
    if (this.trim(sourceBuffer)) return;
    const chunk = this.queue.shift();
    if (!chunk) {
      this.followLiveEdge();
      return;
    }
    try {
      sourceBuffer.appendBuffer(chunk);
      this.quotaHits = 0;
    } catch (error) {
      if (error.name === 'QuotaExceededError') {
        // Full: keep the chunk, free everything but the last half second, and try again.
        this.queue.unshift(chunk);
        this.quotaHits += 1;
        if (this.quotaHits > 3) {
          this.queue = this.queue.filter((item) => item.isInit);
          this.needKeyframe = true;
        }
        this.trim(sourceBuffer, 0.5);
      } else {
        this.recover();
      }
    }
  }

  /** Removes media older than `behind` seconds before the playhead; true when a removal started. */
  trim(sourceBuffer, behind = keepBehind) {
    const ranges = sourceBuffer.buffered;
    if (!ranges.length) return false;
    const start = ranges.start(0);
    const cutoff = this.video.currentTime - behind;
    const slack = behind === keepBehind ? 2 : 0.1;
    if (cutoff - start < slack) return false;
    try {
      sourceBuffer.remove(start, cutoff);
      return true;
    } catch {
      return false;
    }
  }

  /** Keeps playback near the newest frame: jump when far behind, speed up a little when close. */
  followLiveEdge() {
    const video = this.video;
    const ranges = this.sourceBuffer?.buffered;
    if (!ranges || !ranges.length || this.paused) return;
    const end = ranges.end(ranges.length - 1);
    const start = ranges.start(ranges.length - 1);
    const lag = end - video.currentTime;
    if (video.currentTime < start || lag > maxLag) {
      video.currentTime = Math.max(start, end - jumpSlack);
    } else {
      const rate = lag > catchUpLag ? 1.08 : 1;
      if (video.playbackRate !== rate) video.playbackRate = rate;
    }
    if (video.paused && video.readyState >= 2) video.play().catch(() => {});
  }

  progress() {
    const time = this.video.currentTime;
    if (time !== this.lastTime) {
      this.lastTime = time;
      this.lastProgress = performance.now();
      if (!this.paused && (this.state === 'buffering' || this.state === 'stalled' || this.state === 'waiting')) {
        this.setState('playing');
      }
    }
  }

  tick() {
    if (!this.started || this.paused) return;
    if (this.sourceBuffer && !this.sourceBuffer.updating) this.pump();
    if (this.state === 'playing' && performance.now() - this.lastProgress > 3000) this.setState('stalled');
  }

  /** The decoder failed (e.g. a corrupt frame): start over with a fresh stream and media source. */
  recover() {
    if (!this.started) return;
    this.teardownMedia();
    this.closeSocket();
    this.scheduleRetry();
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.onState(state);
  }
}
