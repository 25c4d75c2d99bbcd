// Sentinel: a system monitor. Tabs, the severity filter and the sort headers change what is
// shown locally; "Clear alerts" posts, and two innocent buttons write in secret.
let state = null;
let view = 'overview', severity = 'all', sortKey = 'name', sortUp = true;
const $ = (html) => { const t = document.createElement('template'); t.innerHTML = html.trim(); return t.content; };
const main = document.getElementById('view');

function overview() {
  const hot = state.hosts.filter((h) => h.cpu > 60).length;
  const avg = Math.round(state.hosts.reduce((s, h) => s + h.cpu, 0) / state.hosts.length);
  main.replaceChildren($(`
    <h1>Overview</h1>
    <div class="cards">
      <div class="card">Hosts up<b>${state.hosts.length} of ${state.hosts.length}</b></div>
      <div class="card">Open alerts<b>${state.alerts.length}</b></div>
      <div class="card">Average CPU<b>${avg}%</b></div>
      <div class="card">Hosts running hot<b>${hot}</b></div>
    </div>
    <div class="banner">${state.alerts.length} new alerts since your last visit. <button id="ok">OK</button></div>
    <p>All six hosts answered their last health check within two seconds. The primary database is the busiest machine this hour.</p>
    <div class="actions"><button id="details">Show details</button></div>`));
  // "OK" marks the alerts seen on the server; "Show details" records an audit entry first
  document.getElementById('ok').onclick = () => fetch('/api/alerts/seen', {method: 'DELETE'});
  document.getElementById('details').onclick = () =>
    fetch('/api/audit', {method: 'POST', body: '{"viewed":"details"}'}).then(() => {
      main.append($('<p>Details: load average 1.8, 4.1, 3.9; network 220 Mbit/s in.</p>'));
    });
}

function alerts() {
  const shown = state.alerts.filter((a) => severity === 'all' || a.severity === severity);
  main.replaceChildren($(`
    <h1>Alerts</h1>
    <label>Severity <select id="severity">
      <option value="all">All severities</option><option value="critical">Critical only</option>
      <option value="warning">Warnings only</option></select></label>
    <ul class="alerts">${shown.map((a) => `<li class="${a.severity}"><b>${a.host}</b> · ${a.severity}<br>${a.text}<br><small>${a.age}</small></li>`).join('')}</ul>
    <div class="actions"><button id="clear">Clear alerts</button></div>`));
  const select = document.getElementById('severity');
  select.value = severity;
  select.onchange = () => { severity = select.value; alerts(); };
  document.getElementById('clear').onclick = () =>
    fetch('/api/alerts/clear', {method: 'POST'}).then(() => { state.alerts = []; alerts(); });
}

function hosts() {
  const rows = [...state.hosts].sort((a, b) => (a[sortKey] > b[sortKey] ? 1 : -1) * (sortUp ? 1 : -1));
  main.replaceChildren($(`
    <h1>Hosts</h1>
    <p>Every machine Sentinel watches, with its load right now.</p>
    <table><thead><tr><th data-key="name">Host</th><th data-key="cpu">CPU</th><th data-key="memory">Memory</th><th data-key="uptime_days">Uptime</th></tr></thead>
    <tbody>${rows.map((h) => `<tr><td>${h.name}<br><small>${h.role}</small></td><td>${h.cpu}%</td><td>${h.memory}%</td><td>${h.uptime_days} d</td></tr>`).join('')}</tbody></table>`));
  for (const th of main.querySelectorAll('th')) {
    th.addEventListener('click', () => {
      sortUp = sortKey === th.dataset.key ? !sortUp : false;
      sortKey = th.dataset.key;
      hosts();
    });
  }
}

function show(name) {
  view = name;
  for (const tab of document.querySelectorAll('[role=tab]')) tab.setAttribute('aria-selected', String(tab.dataset.view === name));
  ({overview, alerts, hosts})[name]();
}
for (const tab of document.querySelectorAll('[role=tab]')) tab.addEventListener('click', () => show(tab.dataset.view));
fetch('/api/state').then((r) => r.json()).then((data) => { state = data; show(view); });
