// Dialogs and small overlays: the add/edit camera form (with inline validation and "Test
// connection"), confirmations, the keyboard shortcuts list, the camera menu and toasts.

import { api, APIError } from './api.js';
import { icon } from './icons.js';
import { canPlay } from './player.js';
import { codecName, sentence } from './status.js';

const $ = (root, selector) => root.querySelector(selector);

/** Opens a <dialog> modally, with a closing animation; resolves with its returnValue. */
function showDialog(dialog) {
  return new Promise((resolve) => {
    dialog.returnValue = '';
    dialog.showModal();
    dialog.addEventListener('close', () => resolve(dialog.returnValue), { once: true });
  });
}

/** Splits "rtsp://user:pass@host/path" into the address without credentials and the credentials. */
export function splitCredentials(url) {
  const match = /^(rtsps?:\/\/)([^@/?#]*)@(.*)$/i.exec(url.trim());
  if (!match) return null;
  const [user, ...rest] = match[2].split(':');
  const decode = (text) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return { url: match[1] + match[3], username: decode(user), password: rest.length ? decode(rest.join(':')) : null };
}

// ----- the camera form -----

export class CameraDialog {
  /** callbacks: onSaved(camera, isNew), onDelete(camera), onOpen(camera | null), beforeClose(camera) */
  constructor(dialog, callbacks) {
    this.dialog = dialog;
    this.form = $(dialog, 'form');
    this.callbacks = callbacks;
    this.camera = null;
    this.removePassword = false;
    this.busy = false;
    this.testSerial = 0;

    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.save();
    });
    this.form.addEventListener('input', (event) => {
      if (event.target.name) this.clearError(event.target.name);
      if (['rtspURL', 'username', 'password', 'transport', 'allowSelfSignedCertificate'].includes(event.target.name)) {
        this.clearTest();
      }
      if (event.target.name === 'rtspURL') this.updateSecureOption();
    });
    this.form.elements.rtspURL.addEventListener('change', () => this.liftCredentials());
    this.form.elements.rtspURL.addEventListener('paste', () => setTimeout(() => this.liftCredentials(), 0));
    $(dialog, '[data-action="test"]').addEventListener('click', () => this.test());
    $(dialog, '[data-action="cancel"]').addEventListener('click', () => this.dialog.close('cancel'));
    $(dialog, '[data-action="close"]').addEventListener('click', () => this.dialog.close('cancel'));
    $(dialog, '[data-action="delete"]').addEventListener('click', () => {
      const camera = this.camera;
      if (!camera) return;
      this.dialog.close('delete');
      this.callbacks.onDelete(camera);
    });
    $(dialog, '[data-action="reveal"]').addEventListener('click', (event) => {
      const input = this.form.elements.password;
      const show = input.type === 'password';
      input.type = show ? 'text' : 'password';
      event.currentTarget.setAttribute('aria-pressed', String(show));
      event.currentTarget.setAttribute('aria-label', show ? 'Hide password' : 'Show password');
      event.currentTarget.innerHTML = icon(show ? 'eyeOff' : 'eye');
    });
    $(dialog, '[data-action="remove-password"]').addEventListener('click', () => {
      this.removePassword = true;
      this.form.elements.password.value = '';
      this.updatePasswordHint();
      this.clearTest();
    });
    // A click on the backdrop (outside the panel) cancels, as on native sheets.
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog && !this.busy) dialog.close('cancel');
    });
  }

  get isOpen() {
    return this.dialog.open;
  }

  /** Opens empty (add) or filled from `camera` (edit). */
  open(camera = null) {
    this.camera = camera;
    this.removePassword = false;
    const form = this.form;
    form.reset();
    this.clearErrors();
    this.clearTest();
    const sub = camera?.profiles?.find((profile) => profile.role === 'sub');
    form.elements.name.value = camera?.name ?? '';
    form.elements.rtspURL.value = camera?.rtspURL ?? '';
    form.elements.username.value = camera?.username ?? '';
    form.elements.password.value = '';
    form.elements.password.type = 'password';
    form.elements.transport.value = camera?.transport ?? 'tcp';
    form.elements.subStreamURL.value = sub?.rtspURL ?? '';
    form.elements.allowSelfSignedCertificate.checked = Boolean(camera?.allowSelfSignedCertificate);
    form.elements.isActive.checked = camera ? camera.isActive !== false : true;
    $(this.dialog, '.dialog-title').textContent = camera ? `Edit ${camera.name}` : 'Add a camera';
    $(this.dialog, '[data-action="save"]').textContent = camera ? 'Save' : 'Add camera';
    $(this.dialog, '[data-action="delete"]').hidden = !camera;
    $(this.dialog, '.field-active').hidden = !camera;
    const advanced = $(this.dialog, 'details');
    advanced.open = Boolean(camera && (sub || camera.transport === 'udp' || camera.allowSelfSignedCertificate || camera.isActive === false));
    this.updatePasswordHint();
    this.updateSecureOption();
    this.setBusy(false);
    this.callbacks.onOpen?.(camera);
    showDialog(this.dialog);
    // On a touch screen the keyboard should not jump up before the person chooses a field.
    if (matchMedia('(pointer: coarse)').matches) $(this.dialog, '.dialog-title').focus();
    else form.elements.name.focus();
  }

  updatePasswordHint() {
    const saved = Boolean(this.camera?.hasPassword) && !this.removePassword;
    const input = this.form.elements.password;
    input.placeholder = saved ? 'Saved — type to change' : (this.removePassword ? 'Will be removed' : '');
    $(this.dialog, '[data-action="remove-password"]').hidden = !saved;
  }

  updateSecureOption() {
    const secure = /^rtsps:/i.test(this.form.elements.rtspURL.value.trim());
    $(this.dialog, '.field-selfsigned').classList.toggle('muted', !secure);
  }

  /** Moves credentials typed into the address into their own fields, as the server would. */
  liftCredentials() {
    const parts = splitCredentials(this.form.elements.rtspURL.value);
    if (!parts) return;
    const form = this.form.elements;
    form.rtspURL.value = parts.url;
    if (parts.username) form.username.value = parts.username;
    if (parts.password !== null) {
      form.password.value = parts.password;
      this.removePassword = false;
      this.updatePasswordHint();
    }
    this.setHint('rtspURL', 'Moved the username and password from the address into their fields.');
  }

  /** The form as API fields (the password only when typed, or "" to remove it). */
  fields() {
    const form = this.form.elements;
    const fields = {
      name: form.name.value.trim(),
      rtspURL: form.rtspURL.value.trim(),
      username: form.username.value.trim(),
      transport: form.transport.value || 'tcp',
      allowSelfSignedCertificate: form.allowSelfSignedCertificate.checked,
      subStreamURL: form.subStreamURL.value.trim(),
    };
    const password = form.password.value;
    if (password) fields.password = password;
    else if (this.removePassword) fields.password = '';
    if (this.camera) {
      fields.isActive = form.isActive.checked;
    } else {
      if (!fields.subStreamURL) delete fields.subStreamURL;
      if (!fields.username) delete fields.username;
    }
    return fields;
  }

  /** For PATCH: only what differs from the saved camera (a changed source restarts its stream). */
  changes(fields) {
    const camera = this.camera;
    const saved = {
      name: camera.name, rtspURL: camera.rtspURL, username: camera.username ?? '', transport: camera.transport ?? 'tcp',
      allowSelfSignedCertificate: Boolean(camera.allowSelfSignedCertificate), isActive: camera.isActive !== false,
      subStreamURL: camera.profiles?.find((profile) => profile.role === 'sub')?.rtspURL ?? '',
    };
    const changed = {};
    for (const [key, value] of Object.entries(fields)) {
      if (key === 'password' || saved[key] !== value) changed[key] = value;
    }
    return changed;
  }

  /** The checks worth doing before asking the server; the server's answer is the final word. */
  validate(fields, { needName = true } = {}) {
    const errors = {};
    if (needName && !fields.name) errors.name = 'Give the camera a name, like “Front door”.';
    if (!fields.rtspURL) errors.rtspURL = 'Enter the camera’s RTSP address, like rtsp://192.168.1.64:554/stream1.';
    else if (!/^rtsps?:\/\/[^\s/]+/i.test(fields.rtspURL)) errors.rtspURL = 'The address starts with rtsp:// or rtsps://, like rtsp://192.168.1.64:554/stream1.';
    if (fields.subStreamURL && !/^rtsps?:\/\/[^\s/]+/i.test(fields.subStreamURL)) {
      errors.subStreamURL = 'The sub-stream address starts with rtsp:// or rtsps://.';
    }
    return errors;
  }

  async save() {
    if (this.busy) return;
    this.clearErrors();
    const fields = this.fields();
    const errors = this.validate(fields);
    if (Object.keys(errors).length) {
      for (const [field, message] of Object.entries(errors)) this.setError(field, message);
      this.focusFirstError();
      return;
    }
    this.setBusy(true, this.camera ? 'Saving…' : 'Adding…');
    try {
      let camera;
      if (this.camera) {
        const changes = this.changes(fields);
        camera = Object.keys(changes).length ? await api.updateCamera(this.camera.id, changes) : this.camera;
        // More settings saved with the camera (the Recording section); a failure keeps the dialog open.
        await this.callbacks.beforeClose?.(camera);
      } else {
        camera = await api.addCamera(fields);
      }
      this.dialog.close('saved');
      this.callbacks.onSaved(camera, !this.camera);
    } catch (error) {
      this.showError(error);
    } finally {
      this.setBusy(false);
    }
  }

  async test() {
    this.clearErrors();
    const fields = this.fields();
    const errors = this.validate(fields, { needName: false });
    if (Object.keys(errors).length) {
      for (const [field, message] of Object.entries(errors)) this.setError(field, message);
      this.focusFirstError();
      return;
    }
    const serial = ++this.testSerial;
    const box = $(this.dialog, '.test-result');
    const button = $(this.dialog, '[data-action="test"]');
    button.disabled = true;
    button.classList.add('is-busy');
    box.hidden = false;
    box.dataset.tone = 'busy';
    box.innerHTML = `<span class="spinner small" aria-hidden="true"></span><div><strong>Connecting to the camera…</strong><p>This takes up to 10 seconds.</p></div>`;
    box.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    try {
      // An unchanged saved camera is probed with its saved password, which the browser never sees.
      const unchanged = this.camera && !fields.password && !this.removePassword &&
        fields.rtspURL === this.camera.rtspURL && fields.username === this.camera.username;
      const result = unchanged
        ? await api.testCamera(this.camera.id)
        : await api.testConnection({ rtspURL: fields.rtspURL, username: fields.username || undefined,
          password: fields.password || undefined, transport: fields.transport,
          allowSelfSignedCertificate: fields.allowSelfSignedCertificate });
      if (serial === this.testSerial) this.showTest(result);
    } catch (error) {
      if (serial !== this.testSerial) return;
      if (error.field) {
        box.hidden = true;
        this.showError(error);
      } else {
        this.showTest({ ok: false, error: error.message });
      }
    } finally {
      if (serial === this.testSerial) {
        button.disabled = false;
        button.classList.remove('is-busy');
      }
    }
  }

  showTest(result) {
    const box = $(this.dialog, '.test-result');
    box.hidden = false;
    box.dataset.tone = result.ok ? 'good' : 'bad';
    const seconds = result.elapsedMs != null ? ` in ${(result.elapsedMs / 1000).toFixed(1)} s` : '';
    if (!result.ok) {
      const hints = {
        authenticationFailed: 'Check the username and password.',
        unreachable: 'Check the address and port, and that the camera is on the same network.',
        unsupportedCodec: 'Set the camera to H.264 or H.265.',
      };
      box.innerHTML = `${icon('alert', 'result-icon')}<div><strong>Couldn’t connect</strong><p class="result-error"></p>` +
        `${hints[result.state] ? `<p class="result-hint">${hints[result.state]}</p>` : ''}</div>`;
      $(box, '.result-error').textContent = sentence(result.error) || 'The camera did not answer.';
      box.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      return;
    }
    const chips = [];
    const video = result.video;
    if (video) {
      chips.push(`${codecName(video.codec).replace(' (HEVC)', '')}${video.profile ? ` ${video.profile}` : ''}${video.level ? ` ${video.level}` : ''}`);
      if (video.width && video.height) chips.push(`${video.width} × ${video.height}`);
      if (video.fps) chips.push(`${Math.round(video.fps * 100) / 100} fps`);
    }
    if (result.bitrateKbps) chips.push(`${Math.round(result.bitrateKbps)} kb/s`);
    if (result.audio) {
      const rate = result.audio.sampleRate ? ` ${result.audio.sampleRate / 1000} kHz` : '';
      const channels = result.audio.channels === 1 ? ' mono' : result.audio.channels === 2 ? ' stereo' : '';
      chips.push(`Audio: ${String(result.audio.codec).toUpperCase()}${rate}${channels}`);
    }
    let warning = '';
    if (video?.codecString && !canPlay(`video/mp4; codecs="${video.codecString}"`)) {
      warning = `<p class="result-hint">${icon('alert')} This browser can’t play ${codecName(video.codec)}; Safari can. ` +
        'For other browsers, set the camera to H.264 or add an H.264 sub-stream.</p>';
    }
    box.innerHTML = `${icon('check', 'result-icon')}<div><strong>Connected${seconds}</strong><ul class="chips"></ul>` +
      `<p class="result-server"></p>${warning}</div>`;
    const list = $(box, '.chips');
    for (const text of chips) {
      const item = document.createElement('li');
      item.textContent = text;
      list.append(item);
    }
    $(box, '.result-server').textContent = result.server ? `Server: ${result.server}` : '';
    box.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  clearTest() {
    this.testSerial += 1;
    const box = $(this.dialog, '.test-result');
    box.hidden = true;
    box.innerHTML = '';
    const button = $(this.dialog, '[data-action="test"]');
    button.disabled = false;
    button.classList.remove('is-busy');
  }

  /** An API failure: under its field when the server names one, else above the buttons. */
  showError(error) {
    const field = error instanceof APIError ? error.field : null;
    if (field && this.form.elements[field]) {
      if (field === 'subStreamURL' || field === 'transport' || field === 'allowSelfSignedCertificate') {
        $(this.dialog, 'details').open = true;
      }
      this.setError(field, error.message);
      this.focusFirstError();
    } else {
      const banner = $(this.dialog, '.form-error');
      banner.hidden = false;
      banner.querySelector('span').textContent = sentence(error.message);
    }
  }

  setError(field, message) {
    const input = this.form.elements[field];
    const slot = $(this.dialog, `[data-error-for="${field}"]`);
    if (input?.setAttribute) input.setAttribute('aria-invalid', 'true');
    if (slot) {
      slot.textContent = sentence(message);
      slot.hidden = false;
      slot.classList.remove('hint');
    } else {
      const banner = $(this.dialog, '.form-error');
      banner.hidden = false;
      banner.querySelector('span').textContent = message;
    }
  }

  setHint(field, message) {
    const slot = $(this.dialog, `[data-error-for="${field}"]`);
    if (!slot) return;
    slot.textContent = message;
    slot.hidden = false;
    slot.classList.add('hint');
  }

  clearError(field) {
    const input = this.form.elements[field];
    if (input?.removeAttribute) input.removeAttribute('aria-invalid');
    const slot = $(this.dialog, `[data-error-for="${field}"]`);
    if (slot) slot.hidden = true;
    $(this.dialog, '.form-error').hidden = true;
  }

  clearErrors() {
    for (const slot of this.dialog.querySelectorAll('[data-error-for]')) slot.hidden = true;
    for (const input of this.form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
    $(this.dialog, '.form-error').hidden = true;
  }

  focusFirstError() {
    const input = this.form.querySelector('[aria-invalid="true"]');
    input?.focus();
    input?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }

  setBusy(busy, label) {
    this.busy = busy;
    const save = $(this.dialog, '[data-action="save"]');
    save.disabled = busy;
    save.classList.toggle('is-busy', busy);
    if (busy) save.textContent = label;
    else save.textContent = this.camera ? 'Save' : 'Add camera';
  }
}

// ----- confirmation -----

/** Asks a yes/no question in the confirm dialog; resolves true when confirmed. */
export async function confirmAction(dialog, { title, message, confirm = 'OK', danger = false }) {
  $(dialog, '.confirm-title').textContent = title;
  $(dialog, '.confirm-message').textContent = message;
  const button = $(dialog, '[value="confirm"]');
  button.textContent = confirm;
  button.classList.toggle('btn-danger', danger);
  button.classList.toggle('btn-primary', !danger);
  const result = showDialog(dialog);
  button.focus();
  return (await result) === 'confirm';
}

// ----- camera menu -----

/**
 * A small menu under `anchor`. items: [{label, icon, action, danger?}] or 'separator'.
 * Resolves with the chosen action, or null when dismissed.
 */
export function openMenu(anchor, items) {
  closeMenu();
  return new Promise((resolve) => {
    const menu = document.createElement('div');
    menu.className = 'menu';
    menu.setAttribute('role', 'menu');
    for (const item of items) {
      if (item === 'separator') {
        menu.insertAdjacentHTML('beforeend', '<hr role="separator">');
        continue;
      }
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('role', 'menuitem');
      button.className = item.danger ? 'menu-item danger' : 'menu-item';
      button.innerHTML = `${icon(item.icon)}<span></span>${item.shortcut ? `<kbd>${item.shortcut}</kbd>` : ''}`;
      button.querySelector('span').textContent = item.label;
      button.addEventListener('click', (event) => {
        event.stopPropagation();
        finish(item.action);
      });
      menu.append(button);
    }
    document.body.append(menu);
    const rect = anchor.getBoundingClientRect();
    const width = menu.offsetWidth;
    const height = menu.offsetHeight;
    const left = Math.max(8, Math.min(innerWidth - width - 8, rect.right - width));
    const below = rect.bottom + 6 + height < innerHeight - 8;
    menu.style.left = `${left}px`;
    menu.style.top = `${below ? rect.bottom + 6 : Math.max(8, rect.top - height - 6)}px`;
    menu.classList.add(below ? 'from-top' : 'from-bottom');
    const buttons = [...menu.querySelectorAll('button')];
    buttons[0]?.focus({ preventScroll: true });

    const onKey = (event) => {
      const index = buttons.indexOf(document.activeElement);
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        finish(null);
        anchor.focus?.();
      } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        event.stopPropagation();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        buttons[(index + step + buttons.length) % buttons.length].focus();
      } else if (event.key === 'Tab') {
        finish(null);
      }
    };
    const onOutside = (event) => {
      if (!menu.contains(event.target)) finish(null);
    };
    function finish(action) {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onOutside, true);
      window.removeEventListener('resize', dismiss);
      window.removeEventListener('scroll', dismiss, true);
      menu.remove();
      activeMenu = null;
      resolve(action);
    }
    const dismiss = () => finish(null);
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onOutside, true);
    window.addEventListener('resize', dismiss);
    window.addEventListener('scroll', dismiss, true);
    activeMenu = dismiss;
  });
}

let activeMenu = null;

export function closeMenu() {
  activeMenu?.();
}

export function menuIsOpen() {
  return activeMenu !== null;
}

// ----- toasts -----

/** A short message at the bottom of the window; tone: info | good | bad. */
export function toast(message, tone = 'info') {
  const region = document.getElementById('toasts');
  const item = document.createElement('div');
  item.className = `toast toast-${tone}`;
  item.setAttribute('role', tone === 'bad' ? 'alert' : 'status');
  item.innerHTML = `${icon(tone === 'bad' ? 'alert' : tone === 'good' ? 'check' : 'info')}<span></span>`;
  item.querySelector('span').textContent = tone === 'bad' ? sentence(message) : message;
  region.append(item);
  while (region.children.length > 3) region.firstElementChild.remove();
  setTimeout(() => {
    item.classList.add('leaving');
    setTimeout(() => item.remove(), 250);
  }, tone === 'bad' ? 6000 : 3500);
}

export { showDialog };
