// One pass over a settled page: its metadata, the visible text (as lines, and as elements
// with roles and boxes), the links to follow, the controls worth pressing (marked with
// data-shotsmith-click so the explorer can press them by index: only controls that read as
// navigation, see rules.json's navigation_labels; actions and controls in doubt are
// listed, never marked) and signals the explorer
// judges the page by (a sign-in form, a desktop-only layout, where content starts).
// Every value read from the DOM goes through str()/hrefOf(): an SVG link's href is an
// SVGAnimatedString, a className may be one too, attributes may be missing.
(opts) => {
  const {allowForms, maxClicks, risky, riskyLinks, menuWords, maxElements, navWords, navPhrases} = opts;
  const {chrome, busyWords, busyText, loadingWords} = opts;
  const vw = innerWidth, vh = innerHeight;
  const str = (v) => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'object' && 'baseVal' in v) return String(v.baseVal || '');
    return String(v);
  };
  const norm = (s) => str(s).replace(/\s+/g, ' ').trim();
  const esc = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[\\s_-]*');
  const wordsRe = (list) => list.length
    ? new RegExp('(?<![\\p{L}\\p{N}_])(?:' + list.map(esc).join('|') + ')(?![\\p{L}\\p{N}_])', 'iu')
    : /(?!)/;
  const riskyRe = wordsRe(risky), riskyLinkRe = wordsRe(riskyLinks), navRe = wordsRe(navWords || []);
  const navPhraseRe = (navPhrases || []).length
    ? new RegExp('^(?:' + navPhrases.map(esc).join('|') + ')[\\s.…:›»>→]*$', 'iu') : /(?!)/;
  const menuRe = menuWords.length ? new RegExp(menuWords.map(esc).join('|'), 'i') : /(?!)/;
  const attr = (el, name) => str(el.getAttribute && el.getAttribute(name));
  const cls = (el) => str(el.getAttribute && el.getAttribute('class'));
  const shown = (el) => {
    if (!el || !el.getClientRects || !el.getClientRects().length) return false;
    if (el.checkVisibility) return el.checkVisibility({opacityProperty: true, visibilityProperty: true});
    const st = getComputedStyle(el);
    return st.visibility !== 'hidden' && st.opacity !== '0';
  };
  const inView = (r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw;
  const clip = (r) => {
    const x0 = Math.max(0, r.left), y0 = Math.max(0, r.top);
    const x1 = Math.min(vw, r.right), y1 = Math.min(vh, r.bottom);
    return [x0, y0, Math.max(0, x1 - x0), Math.max(0, y1 - y0)];
  };
  const union = (a, b) => {
    if (!a) return b;
    const x0 = Math.min(a[0], b[0]), y0 = Math.min(a[1], b[1]);
    const x1 = Math.max(a[0] + a[2], b[0] + b[2]), y1 = Math.max(a[1] + a[3], b[1] + b[3]);
    return [x0, y0, x1 - x0, y1 - y0];
  };
  const root = document.body || document.documentElement;

  // --- the role of a piece of text ------------------------------------------------
  const NAV = 'nav, [role=navigation], [role=tablist], [role=menubar]';
  const roleOf = (el) => {
    const h = el.closest('h1, h2, h3, h4, h5, h6, [role=heading]');
    if (h) {
      const lvl = /^H([1-6])$/.test(h.tagName) ? Number(h.tagName[1]) : Number(attr(h, 'aria-level')) || 2;
      return {role: 'heading', el: h, level: Math.min(6, Math.max(1, lvl))};
    }
    const tab = el.closest('[role=tab]');
    if (tab) return {role: 'tab', el: tab};
    const control = el.closest('a[href], button, [role=button], [role=link], [role=menuitem], summary, label, th, [role=columnheader], legend, dt');
    if (control) {
      const tag = control.tagName;
      const inNav = !!control.closest(NAV) || isTabBar(control);
      if (tag === 'A' || attr(control, 'role') === 'link') return {role: inNav ? 'tab' : 'link', el: control};
      if (/^(LABEL|TH|LEGEND|DT)$/.test(tag) || attr(control, 'role') === 'columnheader') return {role: 'label', el: control};
      return {role: inNav ? 'tab' : 'button', el: control};
    }
    const item = el.closest('li, [role=listitem], [role=row], tr, [role=option], [role=treeitem]');
    if (item) return {role: 'listitem', el: item};
    return {role: 'text', el: blockOf(el)};
  };
  // the page's own place in a menu or a tab bar: aria-current, a selected tab, or the
  // "active"/"current"/"selected" class a menu gives its item (on the link or its <li>)
  const CURRENT_CLASS = /(^|[\s_-])(active|current|selected)($|[\s_-])/i;
  const isCurrent = (el) => {
    for (let e = el, i = 0; e && i < 2; e = e.parentElement, i++) {
      const aria = attr(e, 'aria-current');
      if ((aria && aria !== 'false') || attr(e, 'aria-selected') === 'true') return true;
      if (CURRENT_CLASS.test(cls(e))) return true;
      if (i === 0 && !e.parentElement?.matches?.('li, [role=listitem]')) break;
    }
    return false;
  };
  const barCache = new Map();
  const isTabBar = (el) => {
    // a bar fixed to the bottom of the screen with a few links: a mobile tab bar
    let p = el.parentElement;
    for (let i = 0; p && i < 4; i++, p = p.parentElement) {
      if (barCache.has(p)) return barCache.get(p);
      const st = getComputedStyle(p);
      if (st.position === 'fixed' || st.position === 'sticky') {
        const r = p.getBoundingClientRect();
        const bar = r.top > vh * 0.75 && r.width > vw * 0.6 && r.height < 120;
        barCache.set(p, bar);
        return bar;
      }
    }
    return false;
  };
  const blockOf = (el) => {
    while (el && el.parentElement && getComputedStyle(el).display === 'inline') el = el.parentElement;
    return el;
  };

  // --- visible text: lines, and elements with roles ------------------------------------
  const lines = []; let cur = '', curBlock = null, prevRaw = '';
  let crushed = 0;  // text squeezed into a column a few letters wide: a desktop layout
  const elements = []; const byEl = new Map();
  let minTop = Infinity;
  // 4 = NodeFilter.SHOW_TEXT, 1/2 = FILTER_ACCEPT/REJECT: numbers, as a page may replace NodeFilter
  // a text node of white space alone (a space between two words in elements of their own)
  // is skipped, and said as a space between the words either side
  let gap = false;
  const walker = document.createTreeWalker(root, 4, {acceptNode: (n) => {
    const p = n.parentElement; if (!p) return 2;
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|TITLE)$/.test(p.tagName)) return 2;
    if (str(n.nodeValue).trim()) return 1;
    gap = true;
    return 2;
  }});
  const range = document.createRange(); let n, total = 0;
  while ((n = walker.nextNode()) && total < 8000) {
    const spaced = gap; gap = false;
    const p = n.parentElement; if (!shown(p)) continue;
    range.selectNodeContents(n);
    const rect = range.getBoundingClientRect();
    if (!inView(rect)) continue;
    const raw = str(n.nodeValue), t = norm(raw), b = blockOf(p);
    if (b !== curBlock) { if (cur) lines.push(cur); cur = t; curBlock = b; }
    else cur += ((spaced || /\s$/.test(prevRaw) || /^\s/.test(raw)) ? ' ' : '') + t;
    prevRaw = raw; total += t.length;
    minTop = Math.min(minTop, rect.top);
    if (t.length >= 12 && rect.width < 40 && range.getClientRects().length >= t.length / 3) crushed++;
    const r = roleOf(p);
    let entry = byEl.get(r.el);
    if (!entry) {
      if (elements.length >= maxElements) continue;
      entry = {role: r.role, text: '', box: null};
      if (r.level) entry.level = r.level;
      if (/^(tab|link|button)$/.test(r.role) && isCurrent(r.el)) entry.current = true;
      byEl.set(r.el, entry); elements.push(entry);
    }
    entry.text += (entry.text && (b !== entry.block || spaced || /^\s/.test(raw) || entry.spaceAfter) ? ' ' : '') + t;
    entry.spaceAfter = /\s$/.test(raw);
    entry.block = b;
    entry.box = union(entry.box, clip(rect));
  }
  if (cur) lines.push(cur);
  // fields: what a field asks for (placeholder, accessible name), not what is typed in it
  for (const el of document.querySelectorAll('input, textarea, select')) {
    if (elements.length >= maxElements) break;
    const type = attr(el, 'type').toLowerCase();
    if (/^(hidden|submit|button|image|reset|checkbox|radio|file|range|color)$/.test(type)) continue;
    if (!shown(el)) continue;
    const rect = el.getBoundingClientRect(); if (!inView(rect)) continue;
    minTop = Math.min(minTop, rect.top);
    const text = norm(attr(el, 'placeholder') || attr(el, 'aria-label') || attr(el, 'title'));
    if (!text) continue;
    elements.push({role: 'input', text: text.slice(0, 120), box: clip(rect)});
  }
  for (const el of document.querySelectorAll('img, svg, canvas, video, button, [role=button]')) {
    const rect = el.getBoundingClientRect();
    if (rect.width >= 4 && rect.height >= 4 && inView(rect) && shown(el)) minTop = Math.min(minTop, rect.top);
  }
  const outElements = elements
    .map((e) => {
      const o = {role: e.role, text: e.text.replace(/\s+/g, ' ').trim().slice(0, 300)};
      if (e.level) o.level = e.level;
      if (e.current) o.current = true;
      o.box = e.box.map((v) => Math.round(v * 100) / 100);
      return o;
    })
    .filter((e) => e.text && e.box[2] > 0 && e.box[3] > 0);

  // --- metadata ----------------------------------------------------------------
  const meta = (name) => {
    const m = document.querySelector(`meta[name="${name}"], meta[property="${name}"]`);
    return m ? norm(attr(m, 'content')) : '';
  };
  let h1 = '';
  for (const h of document.querySelectorAll('h1, [role=heading][aria-level="1"]')) {
    if (shown(h)) { h1 = norm(h.innerText || h.textContent); break; }
  }
  const viewport = meta('viewport');

  // --- links -------------------------------------------------------------------
  const hrefOf = (a) => {
    let raw = a.getAttribute('href');
    if (raw === null) raw = a.getAttribute('xlink:href');
    if (raw === null && a.href && typeof a.href === 'object') raw = a.href.baseVal;
    raw = str(raw).trim();
    if (!raw) return {raw: '', url: ''};
    try { return {raw, url: new URL(raw, document.baseURI).href}; } catch (e) { return {raw, url: ''}; }
  };
  const inList = (a) => {
    // a link in list content: a list item, a table row, or one of several alike siblings (cards)
    if (a.closest(NAV)) return false;
    if (a.closest('li, tr, [role=row], [role=listitem], article, [role=article]')) return true;
    for (let p = a, i = 0; p && p.parentElement && i < 4; p = p.parentElement, i++) {
      const key = p.tagName + '.' + cls(p);
      let alike = 0;
      for (const sib of p.parentElement.children) if (sib.tagName + '.' + cls(sib) === key && ++alike >= 3) return true;
    }
    return false;
  };
  const links = [];
  const hashLinks = [];
  for (const a of document.querySelectorAll('a[href], area[href], a[*|href]')) {
    if (a.hasAttribute('download')) continue;
    const {raw, url} = hrefOf(a);
    if (!url) continue;
    const text = norm(attr(a, 'aria-label') || a.innerText || a.textContent || attr(a, 'title')).slice(0, 60);
    if (raw.startsWith('#') && raw.length > 1 && !/^#[/!]/.test(raw)) {
      // a same-document link: an anchor to scroll to, or a route the page's script handles
      let id = raw.slice(1);
      try { id = decodeURIComponent(id); } catch (e) { /* keep it as written */ }
      if (!document.getElementById(id) && !document.getElementsByName(id).length) hashLinks.push(a);
      continue;
    }
    links.push({href: url, text, visible: shown(a), inList: inList(a)});
  }

  // --- controls worth pressing ----------------------------------------------------
  document.querySelectorAll('[data-shotsmith-click]').forEach((e) => e.removeAttribute('data-shotsmith-click'));
  const SEL = 'button, [role=tab], [role=button], [role=link], summary, input[type=button], input[type=submit], input[type=image], [onclick], th[aria-sort], [role=columnheader][aria-sort]';
  const seen = new Set(); const cands = [];
  let formsSkipped = 0, risky_ = 0, menus = 0;
  const actions = [], unclear = [];  // labels of controls not pressed: actions, in doubt
  const note = (list, label) => { if (list.length < 40 && !list.includes(label)) list.push(label); };
  const passwordForms = new Set();
  for (const pw of document.querySelectorAll('input[type=password]')) passwordForms.add(pw.form || pw.closest('form') || pw.parentElement);
  const opensMenu = (el) => {
    const pop = attr(el, 'aria-haspopup').toLowerCase();
    if (pop && pop !== 'false') return true;
    if (el.hasAttribute('aria-expanded') && attr(el, 'role') !== 'tab') return true;
    if (/^(menuitem|menuitemcheckbox|menuitemradio|option|combobox|switch|checkbox|radio|slider|spinbutton)$/.test(attr(el, 'role'))) return true;
    const toggle = (attr(el, 'data-toggle') + ' ' + attr(el, 'data-bs-toggle')).toLowerCase();
    if (/dropdown|collapse|popover|modal|offcanvas/.test(toggle)) return true;
    if (menuRe.test(cls(el) + ' ' + attr(el, 'id'))) return true;
    if (el.tagName === 'SUMMARY') {
      const d = el.parentElement;
      if (d && (d.querySelector('[role=menu], [role=listbox]') || menuRe.test(cls(d)) || /menu|dropdown|popover/i.test(cls(d)))) return true;
    }
    return false;
  };
  // an id a framework generates anew on every load (react-aria-123, :r5:, mui-42) names nothing
  const stableId = (el) => { const id = attr(el, 'id'); return /\d|:|^(react|mui|radix|headlessui|ember)/i.test(id) ? '' : id; };
  const labelOf = (el) => norm(attr(el, 'aria-label') || el.innerText || str(el.value) || attr(el, 'title') || el.textContent).slice(0, 60);
  const consider = (el, how) => {
    if (seen.has(el)) return; seen.add(el);
    if (how !== 'hash' && el.closest('a[href]') && !(el.matches('a[href]') && /^javascript:/i.test(attr(el, 'href')))) return;
    if (el.disabled || attr(el, 'aria-disabled') === 'true') return;
    const tag = el.tagName.toLowerCase(), type = attr(el, 'type').toLowerCase();
    if (type === 'reset' || /^(select|textarea|option|label)$/.test(tag)) return;
    if (tag === 'input' && !/^(button|submit|image)$/.test(type)) return;
    const form = el.form || el.closest('form');
    for (const f of passwordForms) if (f && f.contains(el)) { formsSkipped++; return; }
    const submits = (tag === 'input' && (type === 'submit' || type === 'image')) ||
                    (tag === 'button' && (type === '' || type === 'submit') && !!form);
    if (submits && !allowForms) { formsSkipped++; return; }
    if (!shown(el) || !inView(el.getBoundingClientRect())) return;
    if (opensMenu(el)) { menus++; return; }
    const label = labelOf(el);
    const title = norm(attr(el, 'title') + ' ' + attr(el, 'aria-label'));
    // a control's own label says what it does; a card's text (a pointer-cursor box with a
    // title and a description) only does in a few words
    const nWords = label.split(/\s+/).filter(Boolean).length;
    const action = how === 'sel' || nWords <= 4;
    const navPhrase = navPhraseRe.test(label);  // "Load more": navigation whatever its words
    if (!navPhrase && ((action && riskyRe.test(label)) || riskyRe.test(title)) && !(submits && allowForms)) {
      risky_++; note(actions, label); return;
    }
    // a button of a form that posts changes data, whatever it says
    const posts = form && /^post$/i.test(attr(form, 'method')) && !(submits && allowForms);
    if (posts && !navPhrase) { note(actions, label); return; }
    // only navigation is pressed: a tab, a same-document link, a disclosure, a sort header,
    // a control of a navigation bar or of a panel, a card, a label that reads as navigation
    const navigation = navPhrase || how === 'hash' || attr(el, 'role') === 'tab' ||
      tag === 'summary' || el.matches('th, [role=columnheader]') ||
      !!el.closest(NAV) || isTabBar(el) || !!attr(el, 'aria-controls') ||
      (how === 'pointer' && nWords >= 3) || (submits && allowForms) ||
      (el.matches('a[href]') && /^javascript:/i.test(attr(el, 'href')) && navRe.test(label)) ||
      (label && navRe.test(label));
    if (!navigation) { note(unclear, label || attr(el, 'title') || tag); return; }
    // tabs first, then links the page's script handles, then buttons, then anything clickable
    const rank = attr(el, 'role') === 'tab' ? 0 : how === 'hash' ? 1 : tag === 'summary' ? 4 : how === 'sel' ? 2 : 3;
    found.push({el, rank, label, kind: ['tab', 'hash', 'button', 'pointer', 'disclosure'][rank],
      key: [tag, attr(el, 'role'), label, attr(el, 'onclick'), stableId(el), how === 'hash' ? attr(el, 'href') : ''].join('|'),
      selected: attr(el, 'aria-selected') === 'true' || attr(el, 'aria-current') === 'page',
    });
  };
  const found = [];
  for (const el of document.querySelectorAll(SEL)) consider(el, 'sel');
  for (const a of hashLinks) {
    if (riskyLinkRe.test(norm(a.innerText || a.textContent))) { risky_++; continue; }
    consider(a, 'hash');
  }
  const all = root.querySelectorAll('div, span, li, img, svg, p, section, article, header, th, [role=columnheader]');
  for (let i = 0; i < all.length && i < 3000; i++) {
    const el = all[i];
    if (getComputedStyle(el).cursor !== 'pointer') continue;
    if (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') continue;
    if (el.closest('a[href], button, [role=button], [role=tab], label, summary, input, select, textarea')) continue;
    consider(el, 'pointer');
  }
  // choices that change what is shown, not what is stored: a dropdown, a slider, a segmented
  // control (radio buttons). One other value each (at most two per radio group), never in a
  // form that posts, never one whose label reads as an action
  const ownText = (lab) => Array.from(lab.childNodes).filter((c) => c.nodeType === 3).map((c) => c.nodeValue).join(' ');
  const nameOf = (el) => norm(attr(el, 'aria-label') || (el.labels && el.labels[0] ? ownText(el.labels[0]) : '') ||
    attr(el, 'title') || attr(el, 'name') || stableId(el)).slice(0, 40);
  const perGroup = {};
  const choice = (el, face, label, value) => {
    if (!label || riskyRe.test(label)) { if (label) { risky_++; note(actions, label); } return; }
    found.push({el, rank: 1, label: label.slice(0, 60), kind: 'choice', value: String(value),
      key: ['choice', el.tagName.toLowerCase(), attr(el, 'type'), attr(el, 'name') || stableId(el) || nameOf(el), String(value)].join('|'),
      selected: false});
  };
  for (const el of document.querySelectorAll('select, input[type=range], input[type=radio]')) {
    if (seen.has(el)) continue; seen.add(el);
    if (el.disabled || el.multiple || attr(el, 'aria-disabled') === 'true') continue;
    const face = el.type === 'radio' && el.labels && el.labels[0] ? el.labels[0] : el;
    if (!shown(face) || !inView(face.getBoundingClientRect())) continue;
    const form = el.form || el.closest('form');
    if (form && (passwordForms.has(form) || /^post$/i.test(attr(form, 'method')))) { note(actions, nameOf(el) || el.tagName.toLowerCase()); continue; }
    if (el.tagName === 'SELECT') {
      const options = Array.from(el.options).filter((o) => !o.disabled);
      if (options.length < 2) continue;
      const at = Math.max(0, options.findIndex((o) => o.selected));
      const next = options[(at + 1) % options.length];
      choice(el, face, `${nameOf(el) || 'choice'}: ${norm(next.text)}`, next.value);
    } else if (el.type === 'range') {
      const lo = Number(el.min || 0), hi = Number(el.max || 100), now = Number(el.value);
      if (!(hi > lo)) continue;
      const to = now < (lo + hi) / 2 ? hi : lo;
      choice(el, face, `${nameOf(el) || 'slider'}: ${to}`, to);
    } else if (!el.checked) {
      const group = attr(el, 'name') || stableId(el);
      perGroup[group] = (perGroup[group] || 0) + 1;
      if (perGroup[group] > 2) continue;
      choice(el, face, norm(face === el ? nameOf(el) : face.innerText) || nameOf(el), el.value);
    }
  }
  const labels = new Set();
  found.sort((a, b) => a.rank - b.rank);
  for (const c of found) {
    if (cands.length >= maxClicks) break;
    if (c.label && labels.has(c.label)) continue;  // ten "more" buttons are one idea
    labels.add(c.label);
    c.el.setAttribute('data-shotsmith-click', String(cands.length));
    cands.push({index: cands.length, label: c.label, key: c.key, selected: c.selected, kind: c.kind,
      value: c.value === undefined ? null : c.value, header: c.el.matches('th, [role=columnheader]')});
  }

  // --- signals ------------------------------------------------------------------
  const words = lines.join(' ').split(/\s+/).filter(Boolean).length;
  let password = 0, passwordWords = 0, userField = false;
  for (const pw of document.querySelectorAll('input[type=password]')) {
    if (!shown(pw) || !inView(pw.getBoundingClientRect())) continue;
    password++;
    const box = pw.form || pw.closest('form, [role=dialog], dialog, section, main') || pw.parentElement;
    const inner = norm(box ? box.innerText : '');
    passwordWords = Math.max(passwordWords, inner.split(/\s+/).filter(Boolean).length);
  }
  for (const el of document.querySelectorAll('input[type=email], input[autocomplete=username], input[autocomplete=email], input[name*=user i], input[name*=login i], input[name*=email i], input[id*=user i], input[id*=email i]')) {
    if (shown(el) && inView(el.getBoundingClientRect())) { userField = true; break; }
  }
  // the page's shape: how many elements of each tag and first class (pages of one template
  // share it whatever their data)
  const shape = {};
  const every = root.getElementsByTagName('*');
  for (let i = 0; i < every.length && i < 4000; i++) {
    const el = every[i];
    const key = el.tagName.toLowerCase() + '.' + (cls(el).trim().split(/\s+/)[0] || '');
    shape[key] = (shape[key] || 0) + 1;
  }
  // --- what the main content is made of (pages.py judges it) ---------------------------
  // main content: what is outside the navigation, header, footer and side panels
  // side panels by their geometry, whatever their markup (a chat or details panel
  // beside the main column): a child of a container as wide as the page, at least
  // panelHeight of the screen high, at most panelWidth of it wide, against its left or right
  // edge, beside a sibling at least twice as wide (the main column)
  const panels = [];
  const {panelHeight, panelWidth} = opts;
  const rows = [root];
  for (let i = 0; i < rows.length && i < 400; i++) {
    const kids = Array.from(rows[i].children);
    const boxes = kids.map((k) => k.getBoundingClientRect());
    kids.forEach((k, j) => {
      const r = boxes[j];
      if (r.width >= vw * 0.5) { rows.push(k); return; }
      const edge = r.left <= vw * 0.02 || r.right >= vw * 0.98;
      if (!edge || r.height < vh * (panelHeight || 0.75) || r.width > vw * (panelWidth || 0.35) || r.width < 120) return;
      const main = boxes.some((o, m) => m !== j && o.width >= 2 * r.width && o.height >= vh * 0.5
        && (o.right <= r.left + 2 || o.left >= r.right - 2));
      if (main && !k.querySelector('h1, main, [role=main]')) panels.push(k);
    });
  }
  const inChrome = (el) => {
    try {
      if (chrome && el.closest(chrome)) return true;
    } catch (e) { /* a selector this browser does not know */ }
    return panels.some((p) => p.contains(el));
  };
  const countWords = (t) => norm(t).split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  const content = {words: 0, formWords: 0, items: 0, media: 0, frames: 0, backdrops: 0, busy: 0, fields: 0, entries: 0, loading: [], tables: [], mediaBoxes: []};
  const escRe = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const loadingRe = (busyText || []).length
    ? new RegExp('^(?:' + busyText.map(escRe).join('|') + ')(?![\\p{L}])[^\\n]*$', 'iu') : /(?!)/;
  for (const [el, entry] of byEl) {
    if (!el || inChrome(el)) continue;
    const w = countWords(entry.text);
    content.words += w;
    if (el.closest('form, fieldset, label, legend')) content.formWords += w;
    const t = norm(entry.text);
    if (w <= (loadingWords || 6) && loadingRe.test(t) && (w <= 2 || /(\.\.\.|…)$/.test(t)) && content.loading.length < 5) content.loading.push(t.slice(0, 60));
  }
  const visibleIn = (el, minW, minH) => {
    const r = el.getBoundingClientRect();
    return r.width >= minW && r.height >= minH && inView(r) && shown(el) && !inChrome(el);
  };
  // a list laid out as a row of a few words each (tabs, pagination, breadcrumbs, chips),
  // wrapped to two rows at most, is navigation or labels, not items of the content
  const rowLists = new Map();
  const inRow = (el) => {
    const list = el.parentElement;
    if (!list) return false;
    if (!rowLists.has(list)) {
      const kids = Array.from(list.children), r = list.getBoundingClientRect();
      let row = false;
      if (kids.length >= 2) {
        const a = kids[0].getBoundingClientRect(), b = kids[1].getBoundingClientRect();
        row = Math.abs(a.top - b.top) < 4 && b.left > a.left && r.height <= 2.5 * Math.max(a.height, b.height)
          && kids.slice(0, 12).every((k) => countWords(k.innerText || '') <= 4);
      }
      rowLists.set(list, row);
    }
    return rowLists.get(list);
  };
  for (const el of document.querySelectorAll('li, [role=listitem], article, [role=article], [role=option], [role=treeitem]')) {
    if (content.items >= 50) break;
    // a choice of a form (a radio button and its short label in a list) is the form's, not
    // an item (a to-do with its checkbox says more)
    if (el.querySelector('input:not([type=hidden]), select, textarea, [role=radio], [role=checkbox]')
      && countWords(el.innerText || '') <= 3) continue;
    if (inRow(el)) continue;
    if (visibleIn(el, 4, 4) && norm(el.innerText).length) content.items++;
  }
  // cards: items of the content too, whatever element holds them (a class naming one)
  const cardSel = (opts.cardWords || []).map((w) => `[class*="${w}" i]`).join(',');
  if (cardSel) {
    try {
      for (const el of document.querySelectorAll(cardSel)) {
        if (content.items >= 50) break;
        if (el.parentElement && el.parentElement.closest(cardSel)) continue;  // a card's part
        if (visibleIn(el, 40, 24) && countWords(el.innerText || '') >= 3) content.items++;
      }
    } catch (e) { /* a selector this browser does not know */ }
  }
  for (const el of document.querySelectorAll('img, canvas, svg, video, picture, iframe, [role=img]')) {
    if (el.parentElement && el.parentElement.closest('svg')) continue;
    if (!visibleIn(el, 120, 80)) continue;
    const r = el.getBoundingClientRect();
    // a backdrop behind the page, not a picture in it (or a whiteboard's canvas: the app)
    if (r.width * r.height >= 0.6 * vw * vh) { content.backdrops++; continue; }
    content.media++;
    if (el.tagName === 'IFRAME') content.frames++;
    // where it is drawn: a picture that draws nothing (an empty chart's canvas, a frame left
    // blank) is no picture (pages.py looks at these boxes in the photo)
    content.mediaBoxes.push({kind: el.tagName === 'IFRAME' ? 'frame' : el.tagName.toLowerCase(), box: clip(r)});
    if (content.media >= 5) break;
  }
  const busySel = ['[aria-busy="true"]', '[role="progressbar"]'].concat((busyWords || []).map((w) => `[class*="${w}" i]`)).join(',');
  try {
    for (const el of document.querySelectorAll(busySel)) {
      if (visibleIn(el, 8, 8)) { content.busy++; if (content.busy >= 5) break; }
    }
  } catch (e) { /* a selector this browser does not know */ }
  const fieldSel = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=image]):not([type=reset]), textarea, select, [contenteditable=""], [contenteditable=true], [role=switch], [role=textbox], [role=combobox], [role=checkbox]';
  for (const el of document.querySelectorAll(fieldSel)) {
    if (!visibleIn(el, 6, 6)) continue;
    content.fields++;
    // a field to type or choose in (not a checkbox, a radio button or a switch)
    if (!/^(checkbox|radio|range|color)$/i.test(attr(el, 'type')) && !/^(switch|checkbox)$/.test(attr(el, 'role'))) content.entries++;
  }
  for (const t of document.querySelectorAll('table, [role=table], [role=grid], [role=treegrid]')) {
    if (t.parentElement && t.parentElement.closest('table, [role=table], [role=grid], [role=treegrid]')) continue;
    if (!visibleIn(t, 40, 20) || content.tables.length >= 10) continue;
    let rows = 0, formRows = 0;
    for (const row of t.querySelectorAll('tr, [role=row]')) {
      if (row.closest('thead')) continue;
      const cells = row.querySelectorAll('td, [role=cell], [role=gridcell]');
      if (!cells.length || !norm(row.innerText).length || !shown(row)) continue;
      rows++;
      // a label and its field: a row of a form laid out in a table (a data row has a
      // selection checkbox beside several cells of text)
      const texts = Array.from(row.querySelectorAll('th, td, [role=cell], [role=gridcell], [role=rowheader]'))
        .filter((c) => norm(c.innerText).length).length;
      if (row.querySelector('input:not([type=hidden]), select, textarea') && texts <= 2) formRows++;
    }
    const form = rows > 0 && formRows >= rows / 2;
    const tableWords = countWords(t.innerText);
    // the labels of a form laid out in a table are the form's words
    if (form && !t.closest('form, fieldset')) content.formWords += tableWords;
    content.tables.push({rows, words: tableWords, form});
  }

  const doc = document.documentElement;
  // a desktop layout at this width: wider than the screen, a fixed minimum width on the page
  // or its main container (even when overflow is hidden), text squeezed a few letters wide,
  // or laid out on a desktop-wide viewport and shrunk to fit (no mobile viewport meta)
  const px = (v) => { const m = /^([\d.]+)px$/.exec(str(v)); return m ? Number(m[1]) : 0; };
  let minWidth = 0;
  const containers = [doc, document.body, document.querySelector('main, [role=main]')];
  if (document.body) containers.push(...Array.from(document.body.children).slice(0, 12));
  for (const el of containers) {
    if (!el || !(el instanceof Element)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.position === 'fixed' || cs.position === 'absolute') continue;
    minWidth = Math.max(minWidth, px(cs.minWidth), px(cs.width) > vw ? px(cs.width) : 0);
  }
  const scrollWidth = Math.max(doc.scrollWidth, root.scrollWidth);
  return {
    shape,
    url: location.href, title: norm(document.title), h1,
    appName: meta('application-name') || meta('apple-mobile-web-app-title') || meta('og:site_name'),
    text: lines.join('\n'), elements: outElements, links, clicks: cands,
    formsSkipped, risky: risky_, menus, actions, unclear,
    blockedSubmits: Number(window.__shotsmithBlockedSubmits) || 0,
    words, password, passwordWords, userField,
    cover: /viewport-fit\s*=\s*cover/i.test(viewport),
    overflowX: scrollWidth > vw + 8 || crushed >= 2 || minWidth > vw + 8,
    wide: {scrollWidth, minWidth, crushed, layoutWidth: vw, mobileViewport: /width\s*=\s*device-width/i.test(viewport) ? 1 : 0},
    minTop: Number.isFinite(minTop) ? minTop : null,
    content,
    viewport: [vw, vh],
  };
}
