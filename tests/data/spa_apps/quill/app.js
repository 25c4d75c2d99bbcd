// Quill: a notebook dashboard. The range dropdown and the smoothing slider change the chart
// locally; "Run" and "New notebook" post; "View history" writes in secret; a "Suggestions"
// popover opens by itself once and closes on Escape or a click outside.
let state = null;
let range = '7', smoothing = 0;
const $ = (html) => { const t = document.createElement('template'); t.innerHTML = html.trim(); return t.content; };
const main = document.getElementById('view');
const money = (n) => '$' + n.toLocaleString('en-US');

function series() {
  const raw = state.revenue[range];
  if (!smoothing) return raw;
  return raw.map((_, i) => {
    const part = raw.slice(Math.max(0, i - smoothing), i + 1);
    return Math.round(part.reduce((s, v) => s + v, 0) / part.length);
  });
}

function render() {
  const values = series();
  const top = Math.max(...values);
  const total = state.revenue[range].reduce((s, v) => s + v, 0);
  const label = {7: 'the last 7 days', 30: 'the last 30 days, by week', 90: 'the last 90 days, by week'}[range];
  main.replaceChildren($(`
    <h1>Weekly revenue</h1>
    <p>Revenue for ${label}: <b>${money(total)}</b>${smoothing ? `, smoothed over ${smoothing + 1} points` : ''}.</p>
    <div class="controls">
      <label>Range <select id="range"><option value="7">Last 7 days</option><option value="30">Last 30 days</option><option value="90">Last 90 days</option></select></label>
      <label>Smoothing <input id="smoothing" type="range" min="0" max="4" step="1"></label>
      <button class="plain" id="run">Run</button>
    </div>
    <div class="chart${smoothing ? ' smooth' : ''}">${values.map((v) => `<div style="height:${Math.round(100 * v / top)}%" title="${money(v)}"></div>`).join('')}</div>
    <h2>Your notebooks</h2>
    <ul class="notebooks">${state.notebooks.map((n) => `<li><b>${n.title}</b><br>${n.owner} · ${n.cells} cells · edited ${n.edited}</li>`).join('')}</ul>
    <button class="plain" id="history">View history</button>`));
  const select = document.getElementById('range');
  select.value = range;
  select.addEventListener('change', () => { range = select.value; render(); });
  const slider = document.getElementById('smoothing');
  slider.value = String(smoothing);
  slider.addEventListener('input', () => { smoothing = Number(slider.value); render(); });
  document.getElementById('run').onclick = () => fetch('/api/run', {method: 'POST', body: range});
  // opening the history counts as a view on the server (a write) before it shows
  document.getElementById('history').onclick = () =>
    fetch('/api/notebooks/weekly-revenue/opened', {method: 'PUT'}).then(() => {
      main.append($(`<ul>${state.history.map((h) => `<li>${h}</li>`).join('')}</ul>`));
    });
}

function suggestions() {
  const box = $(`<div class="popover" role="dialog" aria-label="Suggestions">
    <h2>Suggestions</h2><p>Try a 30-day range to see the trend, or smooth the chart to hide the weekend dip.</p></div>`).firstElementChild;
  document.body.append(box);
  const close = () => { box.remove(); removeEventListener('keydown', onKey); removeEventListener('pointerdown', onDown, true); };
  const onKey = (e) => { if (e.key === 'Escape') close(); };
  const onDown = (e) => { if (!box.contains(e.target)) close(); };
  addEventListener('keydown', onKey);
  addEventListener('pointerdown', onDown, true);
}

document.getElementById('new').onclick = () => fetch('/api/notebooks', {method: 'POST', body: '{}'});
fetch('/api/state').then((r) => r.json()).then((data) => {
  state = data;
  render();
  setTimeout(suggestions, 300);
});
