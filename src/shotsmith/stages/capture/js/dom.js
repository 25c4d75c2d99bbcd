// Helpers the in-page scripts share, spliced in where a script says `// @include dom.js`
// (rules.script): the viewport, the text of any DOM value (an SVG attribute is an
// SVGAnimatedString), an attribute, and whether an element is on screen.
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
