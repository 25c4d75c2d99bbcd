// Wait until a page is a settled screen: its DOM has stopped changing and shows content
// (text, no loading skeletons or spinners in view), web fonts are in, animations are
// finished and the images in view have loaded. Every wait is capped.
async (opts) => {
  const {quietCapMs, contentCapMs, fontCapMs, busyWords, busyText, keepScroll} = opts;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const cap = (ms) => new Promise((r) => setTimeout(() => r(false), ms));
  const vw = innerWidth, vh = innerHeight;
  const t0 = performance.now();
  let last = t0;
  let observer = null;
  try {
    observer = new MutationObserver(() => { last = performance.now(); });
    observer.observe(document, {subtree: true, childList: true, characterData: true});
  } catch (e) { observer = null; }
  const busySelector = ['[aria-busy="true"]', '[role="progressbar"]']
    .concat(busyWords.map((w) => `[class*="${w}" i]`)).join(',');
  const inView = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom <= 0 || r.top >= vh || r.right <= 0 || r.left >= vw) return false;
    const st = getComputedStyle(el);
    return st.visibility !== 'hidden' && st.display !== 'none' && Number(st.opacity) > 0.05;
  };
  const busy = () => {
    let n = 0;
    for (const el of document.querySelectorAll(busySelector)) {
      if (++n > 300) break;
      if (inView(el)) return true;
    }
    return false;
  };
  // a short page that says it is loading ("Initializing the connection...") is not done yet
  const busyTextRe = new RegExp('\\b(' + busyText.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|') + ')\\b', 'i');
  // a line that says the content is on its way ("Loading endpoints...", "Loading") holds
  // the page too, however much navigation is around it
  const loadingLineRe = new RegExp('^(' + busyText.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|') + ')(?![\\p{L}])', 'iu');
  const loadingLine = (text) => text.split('\n').some((raw) => {
    const line = raw.trim(), words = line.split(/\s+/).length;
    return words <= 6 && loadingLineRe.test(line) && (words <= 2 || /(\.\.\.|…)$/.test(line));
  });
  const hasText = () => {
    const body = document.body;
    const text = body ? String(body.innerText || '').trim() : '';
    return text.length > 0 && !(text.length < 300 && busyTextRe.test(text)) && !loadingLine(text);
  };
  let scrolled = scrollY;
  for (;;) {
    if (scrollY !== scrolled) { scrolled = scrollY; last = performance.now(); }  // still scrolling
    const now = performance.now();
    const quiet = now - last >= 200 || now - t0 >= quietCapMs;
    const ready = (hasText() && !busy()) || now - t0 >= contentCapMs;
    if (quiet && ready) break;
    if (now - t0 >= Math.max(quietCapMs, contentCapMs)) break;
    await sleep(60);
  }
  if (observer) observer.disconnect();
  try {
    await Promise.race([document.fonts ? document.fonts.ready : Promise.resolve(), cap(fontCapMs)]);
  } catch (e) { /* fonts unavailable: nothing to wait for */ }
  try {
    for (const a of document.getAnimations()) {
      try { a.finish(); } catch (e) { try { a.cancel(); } catch (e2) { /* gone */ } }
    }
  } catch (e) { /* no Web Animations */ }
  if (!keepScroll) window.scrollTo(0, 0);  // a loaded page from its top; a pressed one as it is
  const imgs = Array.from(document.images).filter((i) => !i.complete && i.getBoundingClientRect().top < vh);
  await Promise.race([
    Promise.all(imgs.map((i) => new Promise((r) => { i.addEventListener('load', r); i.addEventListener('error', r); }))),
    cap(fontCapMs),
  ]);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return true;
}
