// Runs before any script of every page the explorer opens (Playwright add_init_script).
// Freezes animations and the caret, refuses popups, and blocks form submissions unless
// forms are allowed or the explorer is signing in with the user's credentials. Keeps what
// a page does as it is left (pagehide, unload, beforeunload, visibilitychange to hidden)
// from running: a write sent then (a wiki saving its story list) can escape the network
// policy, as the page is gone, and a capture never needs it.
(cfg) => {
  const add = () => {
    if (document.getElementById('__shotsmith_still')) return;
    const s = document.createElement('style');
    s.id = '__shotsmith_still';
    s.textContent = cfg.css;
    (document.head || document.documentElement).appendChild(s);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', add);
  else add();
  window.open = () => null;
  const blocked = () => !cfg.allowForms && !window.__shotsmithSignIn;
  const count = () => {
    window.__shotsmithBlockedSubmits = (window.__shotsmithBlockedSubmits || 0) + 1;
  };
  document.addEventListener('submit', (e) => {
    if (!blocked()) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    count();
  }, true);
  const submit = HTMLFormElement.prototype.submit;
  const requestSubmit = HTMLFormElement.prototype.requestSubmit;
  HTMLFormElement.prototype.submit = function () {
    if (blocked()) return count();
    return submit.call(this);
  };
  if (requestSubmit) {
    HTMLFormElement.prototype.requestSubmit = function (...args) {
      if (blocked()) return count();
      return requestSubmit.apply(this, args);
    };
  }
  const leaving = (e) => {
    if (e.type === 'visibilitychange' && document.visibilityState !== 'hidden') return;
    e.stopImmediatePropagation();
  };
  for (const type of ['pagehide', 'unload', 'beforeunload', 'visibilitychange', 'freeze']) {
    window.addEventListener(type, leaving, true);
    document.addEventListener(type, leaving, true);
  }
  // handlers assigned as properties (window.onbeforeunload = ...) are never called
  for (const prop of ['onpagehide', 'onunload', 'onbeforeunload']) {
    try {
      Object.defineProperty(window, prop, {configurable: true, get: () => null, set: () => {}});
    } catch (e) { /* not configurable here */ }
  }
}
