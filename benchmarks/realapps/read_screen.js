// Visible text and elements with roles, in the viewport only, in reading order.
// Evaluated by corpus.py with the status-bar band height (CSS px) as its argument.
(band) => {
  const vw = innerWidth, vh = innerHeight;
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom <= 0 || r.top >= vh || r.right <= 0 || r.left >= vw) return null;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none' || +s.opacity === 0) return null;
    return r;
  };
  const clean = (t) => (t || '').replace(/\s+/g, ' ').trim();
  const roleOf = (el) => {
    const tag = el.tagName.toLowerCase(), role = (el.getAttribute('role') || '').toLowerCase();
    // h1-h6 by their tag; any other heading by aria-level, else 2 ("md-subheader"[1] is no level)
    if (/^h[1-6]$/.test(tag)) return ['heading', +tag[1]];
    if (role === 'heading') return ['heading', Math.min(6, Math.max(1, +el.getAttribute('aria-level') || 2))];
    if (role === 'tab' || el.closest('nav, [role=tablist], [role=navigation]') && (tag === 'a' || tag === 'button')) return ['tab'];
    if (tag === 'button' || role === 'button' || (tag === 'input' && /^(submit|button)$/.test(el.type))) return ['button'];
    if (tag === 'a') return ['link'];
    if (tag === 'li' || role === 'listitem' || role === 'row') return ['listitem'];
    if (tag === 'label' || tag === 'th' || role === 'columnheader') return ['label'];
    if ((tag === 'input' || tag === 'textarea') && el.placeholder) return ['input'];
    return null;
  };
  // the page's own item of a menu or a tab bar, as capture's extract.js reads it
  const CURRENT = /(^|[\s_-])(active|current|selected)($|[\s_-])/i;
  const isCurrent = (el) => {
    for (let e = el, i = 0; e && i < 2; e = e.parentElement, i++) {
      const aria = e.getAttribute('aria-current');
      if ((aria && aria !== 'false') || e.getAttribute('aria-selected') === 'true') return true;
      if (CURRENT.test(e.getAttribute('class') || '')) return true;
      if (i === 0 && !(e.parentElement && e.parentElement.matches('li, [role=listitem]'))) break;
    }
    return false;
  };
  const out = [], seen = new Set();
  const all = document.body.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading],[role=tab],nav a,nav button,[role=navigation] a,button,[role=button],a,li,[role=listitem],label,th,[role=columnheader],input,textarea');
  for (const el of all) {
    const kind = roleOf(el); if (!kind) continue;
    const r = visible(el); if (!r) continue;
    let text = kind[0] === 'input' ? clean(el.placeholder) : clean(el.innerText || el.value || el.getAttribute('aria-label') || el.title);
    if (!text || text.length > 160) continue;
    const key = kind[0] + '|' + text + '|' + Math.round(r.top);
    if (seen.has(key)) continue; seen.add(key);
    const item = {role: kind[0], text, box: [r.left, r.top + band, r.width, r.height]};
    if (kind[0] === 'heading') item.level = kind[1];
    if (/^(tab|link|button)$/.test(kind[0]) && isCurrent(el)) item.current = true;
    out.push(item);
  }
  // plain text blocks not covered above
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const lines = [];
  let node;
  while ((node = walker.nextNode())) {
    const t = clean(node.textContent); if (!t) continue;
    const el = node.parentElement; if (!el || /^(script|style|noscript|template)$/i.test(el.tagName)) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.top >= vh || r.right <= 0 || r.left >= vw) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || +s.opacity === 0) continue;
    lines.push({t, top: r.top, left: r.left, box: [r.left, r.top + band, r.width, r.height]});
  }
  lines.sort((a, b) => (Math.abs(a.top - b.top) < 4 ? a.left - b.left : a.top - b.top));
  const covered = new Set(out.map((e) => e.text));
  for (const l of lines) if (!covered.has(l.t)) { out.push({role: 'text', text: l.t, box: l.box}); covered.add(l.t); }
  out.sort((a, b) => (Math.abs(a.box[1] - b.box[1]) < 4 ? a.box[0] - b.box[0] : a.box[1] - b.box[1]));
  return {text: lines.map((l) => l.t).filter((t, i, a) => a.indexOf(t) === i).join('\n'), elements: out};
}
