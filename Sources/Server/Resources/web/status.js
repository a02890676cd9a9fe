// What a camera's cell says, from the server's Status and the local player's state: never a silent
// black box. `key` becomes the cell's data-state (the server's State names, so tests can read it, plus
// "failed": a stream the hub reports down for a while, `failedSince`).

const codecNames = { h264: 'H.264', h265: 'H.265 (HEVC)', hevc: 'H.265 (HEVC)' };

export function codecName(codec) {
  return codecNames[String(codec || '').toLowerCase()] || String(codec || 'this codec').toUpperCase();
}

function kbps(value) {
  if (value >= 10000) return `${(value / 1000).toFixed(0)} Mb/s`;
  if (value >= 1000) return `${(value / 1000).toFixed(1)} Mb/s`;
  return `${Math.round(value)} kb/s`;
}

/** "25 fps · 1.8 Mb/s · 1920×1080 · H.264": the numbers a person glances at. */
export function statsLine(status, info) {
  const parts = [];
  if (status?.fps) parts.push(`${Math.round(status.fps * 10) / 10} fps`);
  if (status?.bitrateKbps) parts.push(kbps(status.bitrateKbps));
  const width = info?.width || status?.width;
  const height = info?.height || status?.height;
  if (width && height) parts.push(`${width}×${height}`);
  const codec = info?.codec || status?.codec;
  if (codec) parts.push(codecName(codec).replace(' (HEVC)', ''));
  return parts.join(' · ');
}

/**
 * → {key, label, tone, icon, title, detail, spinner, veil, action}
 *   tone: live | busy | warn | bad | off (the status dot's colour)
 *   veil: none | soft (text over the last picture) | full (opaque panel)
 *   action: edit | activate | null (a button under the message)
 */
/** A server message ("authentication failed for …: check the password") as a sentence. */
export function sentence(text) {
  const trimmed = String(text || '').trim();
  if (!trimmed) return '';
  // A message that starts with an address ("rtsp://…") keeps it as written.
  const capital = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

export function describe(camera, status, player) {
  const state = camera?.isActive === false ? 'stopped' : (status?.state || 'idle');
  const message = sentence(status?.message);
  const playerState = player?.state || 'idle';
  const host = camera?.host ? ` at ${camera.host}` : '';

  if (playerState === 'unsupported' && state !== 'stopped') {
    const codec = player.info?.codec;
    return {
      key: 'unsupportedCodec', label: 'Unsupported', tone: 'bad', icon: 'film', veil: 'full', action: 'edit',
      title: `This browser can't play ${codecName(codec).replace(' (HEVC)', '')}`,
      detail: player.error || (String(codec).toLowerCase().startsWith('h26') && codec !== 'h264'
        ? 'Safari on Mac, iPhone and iPad plays H.265; most other browsers do not. Set the camera to H.264, or add an H.264 sub-stream.'
        : `The camera sends ${player.info?.mimeType || 'a format'} that this browser cannot decode.`),
    };
  }

  switch (state) {
    case 'stopped':
      return { key: 'stopped', label: 'Off', tone: 'off', icon: 'off', veil: 'full', action: 'activate',
        title: 'Camera turned off', detail: 'WatchBox is not pulling its stream. Turn it on to watch it.' };
    case 'authenticationFailed':
      return { key: 'authenticationFailed', label: 'Sign-in failed', tone: 'bad', icon: 'lock', veil: 'full', action: 'edit',
        title: 'Authentication failed',
        detail: message || 'The camera refused the username or password. Check them and save again.' };
    case 'unreachable':
      return { key: 'unreachable', label: 'Unreachable', tone: 'bad', icon: 'unplug', veil: 'full', action: 'edit',
        title: 'Camera unreachable',
        detail: message || `No answer from the camera${host}. Check that it is powered on and connected.` };
    case 'unsupportedCodec':
      return { key: 'unsupportedCodec', label: 'Unsupported', tone: 'bad', icon: 'film', veil: 'full', action: 'edit',
        title: 'Unsupported video format',
        detail: message || 'WatchBox plays H.264 and H.265 video. Pick one of those in the camera’s settings.' };
    case 'limitReached':
      return { key: 'limitReached', label: 'Limit reached', tone: 'warn', icon: 'gauge', veil: 'full', action: null,
        title: 'Stream limit reached',
        detail: message || 'Too many cameras are streaming at once. Close another view, or raise the server’s --max-streams.' };
    case 'error':
      return { key: 'error', label: 'Error', tone: 'bad', icon: 'alert', veil: 'full', action: 'edit',
        title: "Can't play this camera", detail: message || 'The camera answered in a way WatchBox does not understand.' };
    default:
      break;
  }

  // The hub's verdict: the stream has not been live for a while (it keeps trying).
  if (status?.failedSince && (state === 'reconnecting' || state === 'connecting' || state === 'frozen')) {
    const since = new Date(status.failedSince).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    return { key: 'failed', label: 'Offline', tone: 'bad', icon: 'unplug', veil: 'full', action: null,
      title: 'Camera offline',
      detail: `${message || 'The camera stopped sending video.'} Down since ${since}; WatchBox keeps trying.` };
  }
  if (playerState === 'failed') {
    return { key: 'error', label: 'Error', tone: 'bad', icon: 'alert', veil: 'full', action: null,
      title: "Can't play this camera", detail: sentence(player.error) || 'The server refused to play this camera.' };
  }
  if (playerState === 'offline') {
    return { key: 'reconnecting', label: 'Reconnecting', tone: 'warn', icon: null, spinner: true, veil: 'soft', action: null,
      title: 'Reconnecting…', detail: 'The connection to WatchBox dropped. Trying again.' };
  }
  if (state === 'reconnecting') {
    return { key: 'reconnecting', label: 'Reconnecting', tone: 'warn', icon: null, spinner: true, veil: 'soft', action: null,
      title: 'Reconnecting…', detail: message || 'The camera stopped sending video. Trying again.' };
  }
  if (state === 'frozen') {
    return { key: 'frozen', label: 'No picture', tone: 'warn', icon: 'alert', veil: 'soft', action: null,
      title: 'Picture frozen', detail: message || 'No new frame from the camera for 5 seconds.' };
  }
  if (playerState === 'playing') {
    return { key: 'live', label: 'Live', tone: 'live', veil: 'none', title: '', detail: '' };
  }
  if (playerState === 'stalled') {
    return { key: 'live', label: 'Live', tone: 'live', veil: 'none', spinner: true, title: '', detail: '' };
  }
  if (playerState === 'paused') {
    return { key: state, label: state === 'live' ? 'Live' : 'Paused', tone: state === 'live' ? 'live' : 'off',
      veil: 'none', title: '', detail: '' };
  }
  const starting = state === 'live' || playerState === 'buffering';
  return { key: 'connecting', label: 'Connecting', tone: 'busy', spinner: true, veil: 'soft', action: null,
    title: starting ? 'Starting video…' : 'Connecting…', detail: '' };
}
