// PrintDock: a printer's control panel. The tabs are hash routes, the file table sorts on
// its column headers and the unit switch converts temperatures, all locally; "Load" and
// "Print" post, and "Show details" in the queue sends a command over the WebSocket. A
// "What's new" popover opens by itself and closes only on a click outside it.
let state = null, sortKey = 'name', sortUp = true, unit = 'c';
const $ = (html) => { const t = document.createElement('template'); t.innerHTML = html.trim(); return t.content; };
const main = document.getElementById('view');
const socket = new WebSocket(`ws://${location.host}/ws`);
socket.addEventListener('open', () => socket.send(JSON.stringify({op: 'subscribe', topic: 'status'})));

function files() {
  const rows = [...state.files].sort((a, b) => (a[sortKey] > b[sortKey] ? 1 : -1) * (sortUp ? 1 : -1));
  main.replaceChildren($(`
    <h1>Files on the printer</h1>
    <p>${state.files.length} files on the SD card, ${rows.reduce((s, f) => s + f.minutes, 0)} minutes of printing.</p>
    <table><thead><tr><th data-key="name">Name</th><th data-key="minutes">Time</th><th data-key="size_mb">Size</th><th></th></tr></thead>
    <tbody>${rows.map((f) => `<tr><td>${f.name}<br><small>uploaded ${f.uploaded}</small></td><td>${f.minutes} min</td><td>${f.size_mb} MB</td>
      <td><button data-load="${f.name}">Load</button> <button data-print="${f.name}">Print</button></td></tr>`).join('')}</tbody></table>`));
  for (const th of main.querySelectorAll('th[data-key]')) {
    th.addEventListener('click', () => { sortUp = sortKey === th.dataset.key ? !sortUp : false; sortKey = th.dataset.key; files(); });
  }
  for (const b of main.querySelectorAll('[data-load]')) b.onclick = () => fetch('/api/files/load', {method: 'POST', body: b.dataset.load});
  for (const b of main.querySelectorAll('[data-print]')) b.onclick = () => fetch('/api/jobs', {method: 'POST', body: b.dataset.print});
}

function queue() {
  main.replaceChildren($(`
    <h1>Print queue</h1>
    <p>Now printing ${state.queue[0].name}, ${state.printer.progress}% done.</p>
    <ol class="queue">${state.queue.map((j) => `<li><b>${j.name}</b><br>${j.owner} · ${j.eta}</li>`).join('')}</ol>
    <div class="row"><button id="details">Show details</button></div>`));
  // asks the printer for details over the socket, and cancels the next job in the same breath
  document.getElementById('details').onclick = () => socket.send(JSON.stringify({op: 'cancel', job: state.queue[1].name}));
}

function printer() {
  const t = (c) => (unit === 'c' ? `${c} °C` : `${Math.round(c * 9 / 5 + 32)} °F`);
  main.replaceChildren($(`
    <h1>${state.printer.name}</h1>
    <p>${state.printer.state}: ${state.printer.progress}% of ${state.queue[0].name}.</p>
    <div class="segmented" role="radiogroup" aria-label="Temperature unit">
      <input type="radio" name="unit" id="unit-c" value="c" ${unit === 'c' ? 'checked' : ''}><label for="unit-c">Celsius</label>
      <input type="radio" name="unit" id="unit-f" value="f" ${unit === 'f' ? 'checked' : ''}><label for="unit-f">Fahrenheit</label>
    </div>
    <p>Nozzle</p><div class="gauge">${t(state.printer.nozzle_c)}</div>
    <p>Bed</p><div class="gauge">${t(state.printer.bed_c)}</div>`));
  for (const r of main.querySelectorAll('input[name=unit]')) r.addEventListener('change', () => { unit = r.value; printer(); });
}

function route() {
  const name = (location.hash.replace('#/', '') || 'files');
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('on', a.getAttribute('href') === '#/' + name);
  ({files, queue, printer}[name] || files)();
}
// "What's new" opens by itself once per load; only a click outside it closes it
function whatsNew() {
  const box = $(`<div class="popover" role="dialog" aria-label="What's new">
    <b>What's new in PrintDock 2.4</b><p>Queue jobs from your phone and get told when a print is done.</p></div>`).firstElementChild;
  document.body.append(box);
  const onDown = (e) => { if (!box.contains(e.target)) { box.remove(); removeEventListener('pointerdown', onDown, true); } };
  addEventListener('pointerdown', onDown, true);
}
addEventListener('hashchange', () => state && route());
fetch('/api/state').then((r) => r.json()).then((data) => { state = data; route(); setTimeout(whatsNew, 200); });
