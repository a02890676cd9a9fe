// The library's month calendar: a grid of day buttons (weeks from Monday) that marks the days with
// footage, today and the chosen day; days to come are disabled. One tab stop for the month, arrow keys
// move between days (the WAI-ARIA grid pattern). Days are local dates, written YYYY-MM-DD.

const pad = (n) => String(n).padStart(2, '0');

/** "2026-11-23" for a local date. */
export const dayKey = (date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** "2026-11-23" → that local date at midnight, or null. */
export function parseDay(key) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key || '');
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
}

/**
 * Fills `grid` with `month`'s days and `title` with its name. Each day is a button with
 * data-lib-action="day" and data-day="YYYY-MM-DD" (the library handles the click).
 * options: { month: Date (any day of it), selected: Date, footageDays: Set of day keys }
 */
export function renderMonth(grid, title, { month, selected: selectedDate, footageDays }) {
  title.textContent = month.toLocaleDateString([], { month: 'long', year: 'numeric' });
  const today = dayKey(new Date());
  const selected = dayKey(selectedDate);
  // Weeks start on Monday.
  const first = new Date(month.getFullYear(), month.getMonth(), 1);
  const lead = (first.getDay() + 6) % 7;
  const days = new Date(month.getFullYear(), month.getMonth() + 1, 0).getDate();
  const names = [];
  for (let i = 0; i < 7; i += 1) {
    names.push(new Date(2024, 0, 1 + i).toLocaleDateString([], { weekday: 'narrow' }));
  }
  let html = `<div class="cal-row cal-names" role="row">${names.map((name) => `<span role="columnheader" class="cal-name">${name}</span>`).join('')}</div>`;
  const cells = [];
  for (let i = 0; i < lead; i += 1) cells.push('<span class="cal-blank" role="gridcell"></span>');
  const now = Date.now();
  for (let d = 1; d <= days; d += 1) {
    const date = new Date(month.getFullYear(), month.getMonth(), d);
    const key = dayKey(date);
    const footage = footageDays.has(key);
    const future = date.getTime() > now;
    const label = `${date.toLocaleDateString([], { weekday: 'long', day: 'numeric', month: 'long' })}${footage ? ', footage recorded' : ', no footage'}`;
    cells.push(`<span role="gridcell"><button type="button" class="cal-day${footage ? ' has-footage' : ''}${key === today ? ' is-today' : ''}" ` +
      `data-lib-action="day" data-day="${key}" aria-label="${label}"${key === selected ? ' aria-pressed="true"' : ' aria-pressed="false"'}` +
      `${future ? ' disabled' : ''} tabindex="${key === selected || (!selected.startsWith(key.slice(0, 7)) && d === 1) ? 0 : -1}">${d}</button></span>`);
  }
  while (cells.length % 7) cells.push('<span class="cal-blank" role="gridcell"></span>');
  for (let i = 0; i < cells.length; i += 7) html += `<div class="cal-row" role="row">${cells.slice(i, i + 7).join('')}</div>`;
  grid.innerHTML = html;
}

/** Arrow keys move between the days of `grid` (one tab stop for the whole month). */
export function moveInMonth(grid, event) {
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
  if (moves[event.key] === undefined) return;
  const buttons = [...grid.querySelectorAll('.cal-day')];
  const index = buttons.indexOf(document.activeElement);
  if (index < 0) return;
  event.preventDefault();
  const next = buttons[Math.max(0, Math.min(buttons.length - 1, index + moves[event.key]))];
  for (const button of buttons) button.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}
