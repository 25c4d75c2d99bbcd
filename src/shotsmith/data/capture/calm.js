// Find what would make a photo a transient state rather than a screen, and clear the chrome
// that is never part of a screen: cookie banners, toasts and framework warning overlays are
// hidden (display: none); open dialogs and menus are reported, so the explorer can press
// Escape or a dismiss button, and refuse the photo if they stay open. With markDismiss,
// the dismiss button of the first open dialog is marked data-shotsmith-dismiss.
(opts) => {
  const {hide, markDismiss, cookieWords, toastWords, overlays, dismissLabels} = opts;
  const vw = innerWidth, vh = innerHeight;
  const str = (v) => (v === null || v === undefined) ? '' : (typeof v === 'object' && 'baseVal' in v) ? String(v.baseVal || '') : String(v);
  const norm = (s) => str(s).replace(/\s+/g, ' ').trim();
  const attr = (el, name) => str(el.getAttribute && el.getAttribute(name));
  const shown = (el) => {
    if (!el || !el.getClientRects || !el.getClientRects().length) return false;
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw;
  };
  const floating = (el) => {
    for (let p = el, i = 0; p && p !== document.body && i < 6; p = p.parentElement, i++) {
      const pos = getComputedStyle(p).position;
      if (pos === 'fixed' || pos === 'sticky') return true;
      if (pos === 'absolute' && Number(getComputedStyle(p).zIndex) > 0) return true;
    }
    return false;
  };
  const labelOf = (el) => norm(attr(el, 'aria-label') || attr(el, 'title') ||
    (el.querySelector('h1, h2, h3, h4, [role=heading], legend') || {}).textContent || el.innerText || el.textContent).slice(0, 80);
  const hidden = [];
  const hideEl = (el, kind) => {
    if (!hide || el.hasAttribute('data-shotsmith-hidden')) return;
    el.style.setProperty('display', 'none', 'important');
    el.setAttribute('data-shotsmith-hidden', kind);
    hidden.push({kind, label: labelOf(el)});
  };
  const names = (el) => (attr(el, 'id') + ' ' + attr(el, 'class') + ' ' + attr(el, 'aria-label')).toLowerCase();
  const anyWord = (text, words) => words.some((w) => text.includes(w));

  // framework warning overlays (dev servers' error/warning layers, debug toolbars)
  for (const sel of overlays) {
    let found = [];
    try { found = document.querySelectorAll(sel); } catch (e) { continue; }
    for (const el of found) hideEl(el, 'framework overlay');
  }
  // cookie banners and consent walls
  const cookieSel = cookieWords.map((w) => `[id*="${w}" i], [class*="${w}" i], [aria-label*="${w}" i]`).join(',');
  for (const el of document.querySelectorAll(cookieSel)) {
    if (!shown(el) || !floating(el)) continue;
    if (el.closest('[data-shotsmith-hidden]')) continue;
    hideEl(el, 'cookie banner');
  }
  // a floating box that talks about cookies, whatever it is called
  const walker = document.createTreeWalker(document.body || document.documentElement, 4);  // text nodes
  let node, visited = 0;
  while ((node = walker.nextNode()) && visited++ < 20000) {
    if (!/\bcookies?\b/i.test(str(node.nodeValue))) continue;
    for (let p = node.parentElement, i = 0; p && p !== document.body && i < 10; p = p.parentElement, i++) {
      const pos = getComputedStyle(p).position;
      if (pos !== 'fixed' && pos !== 'sticky') continue;
      if (shown(p) && !p.closest('[data-shotsmith-hidden]') && p.getBoundingClientRect().height < vh * 0.7 &&
          norm(p.innerText).length < 1500) hideEl(p, 'cookie banner');
      break;
    }
  }
  // toasts, snackbars and live notifications floating over the screen
  const toastSel = toastWords.map((w) => `[id*="${w}" i], [class*="${w}" i]`).join(',') + ', [role=alert], [role=status], [aria-live=assertive]';
  for (const el of document.querySelectorAll(toastSel)) {
    if (!shown(el) || !floating(el) || el.closest('[data-shotsmith-hidden]')) continue;
    if (el.closest('dialog, [role=dialog], [role=alertdialog]')) continue;
    const r = el.getBoundingClientRect();
    if (r.height > vh * 0.5 || !norm(el.innerText)) continue;
    hideEl(el, 'notification');
  }

  // open dialogs
  const dialogs = [];
  for (const el of document.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')) {
    if (!shown(el) || el.closest('[data-shotsmith-hidden]')) continue;
    if (dialogs.some((d) => d.el.contains(el) || el.contains(d.el))) continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height < 0.02 * vw * vh) continue;
    dialogs.push({el, label: labelOf(el), full: r.width >= 0.95 * vw && r.height >= 0.9 * vh,
                  password: !!el.querySelector('input[type=password]')});
  }
  // open menus, listboxes and popovers floating over the screen
  const menus = [];
  const menuSel = '[role=menu], [role=listbox], [role=tooltip], .dropdown-menu.show, .dropdown-menu.open, .dropdown.open > .dropdown-menu, [data-state=open][role]';
  const candidates = Array.from(document.querySelectorAll(menuSel));
  try { candidates.push(...document.querySelectorAll(':popover-open')); } catch (e) { /* no popover API */ }
  for (const el of document.querySelectorAll('[aria-expanded=true][aria-haspopup]:not([aria-haspopup=false])')) {
    const id = attr(el, 'aria-controls') || attr(el, 'aria-owns');
    const target = id && document.getElementById(id.split(/\s+/)[0]);
    if (target) candidates.push(target);
  }
  for (const el of candidates) {
    if (!shown(el) || el.closest('[data-shotsmith-hidden]')) continue;
    if (el.closest('dialog, [role=dialog]') && dialogs.length) continue;
    if (attr(el, 'role') === 'listbox' && el.closest('select')) continue;
    if (!floating(el) && attr(el, 'role') !== 'tooltip' && !el.matches(':popover-open')) continue;
    if (menus.some((m) => m.el.contains(el) || el.contains(m.el))) continue;
    menus.push({el, label: labelOf(el)});
  }
  let dismiss = false;
  if (markDismiss && dialogs.length) {
    document.querySelectorAll('[data-shotsmith-dismiss]').forEach((e) => e.removeAttribute('data-shotsmith-dismiss'));
    const d = dialogs[0].el;
    const wanted = new Set(dismissLabels.map((w) => w.toLowerCase()));
    const buttons = Array.from(d.querySelectorAll('button, [role=button], a[href="#"], [aria-label]'));
    const pick = buttons.find((b) => shown(b) && (
      /close|dismiss/i.test(attr(b, 'aria-label') + ' ' + attr(b, 'title') + ' ' + attr(b, 'class') + ' ' + attr(b, 'data-dismiss') + ' ' + attr(b, 'data-bs-dismiss')) ||
      wanted.has(norm(b.innerText || b.textContent).toLowerCase())));
    if (pick) { pick.setAttribute('data-shotsmith-dismiss', '1'); dismiss = true; }
  }
  return {
    hidden,
    dialogs: dialogs.map((d) => ({label: d.label, full: d.full, password: d.password})),
    menus: menus.map((m) => ({label: m.label})),
    dismiss,
  };
}
