// Find the sign-in form the user's credentials go into, and mark its parts for the explorer:
// data-shotsmith-login="user" (user name or email), "password", and "submit" (the button
// that sends it; none when pressing Enter is the way). Also reports a visible message that
// reads like a failed sign-in, so the explorer can say why signing in did not work.
(opts) => {
  const {submitWords, failureWords, signInLabels} = opts;
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
  document.querySelectorAll('[data-shotsmith-login]').forEach((e) => e.removeAttribute('data-shotsmith-login'));
  const password = Array.from(document.querySelectorAll('input[type=password]')).find(shown) || null;
  const textLike = (el) => el.tagName === 'INPUT' && /^(|text|email|tel|search)$/.test(attr(el, 'type').toLowerCase()) && shown(el) && !el.readOnly && !el.disabled;
  const scope = password ? (password.form || password.closest('form, [role=dialog], dialog, section, main') || document.body) : null;
  let user = null;
  const pool = Array.from((scope || document).querySelectorAll('input')).filter(textLike);
  const userish = (el) => /user|email|login|account|name|ident/i.test(
    attr(el, 'autocomplete') + ' ' + attr(el, 'name') + ' ' + attr(el, 'id') + ' ' + attr(el, 'placeholder') + ' ' + attr(el, 'aria-label') + ' ' + attr(el, 'type'));
  if (password) {
    const before = pool.filter((el) => el.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING);
    user = before.reverse().find(userish) || before[0] || null;
  } else {
    // the first step of a two-step sign-in: a user name / email field on its own
    user = pool.find((el) => userish(el) && attr(el, 'type').toLowerCase() !== 'search') || null;
  }
  const form = (password || user) ? ((password || user).form || (password || user).closest('form, [role=dialog], dialog, section, main') || document.body) : null;
  let submit = null;
  if (form) {
    const re = new RegExp('(' + submitWords.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|') + ')', 'i');
    const buttons = Array.from(form.querySelectorAll('button, input[type=submit], input[type=image], [role=button]')).filter(shown);
    submit = buttons.find((b) => attr(b, 'type').toLowerCase() === 'submit') ||
      buttons.find((b) => re.test(norm(b.innerText || b.value || attr(b, 'aria-label')))) ||
      buttons.find((b) => b.tagName === 'BUTTON' && !attr(b, 'type') && b.form) || null;
  }
  // a sign-in form asks for a user and a password, no more: a form with other fields (a
  // project name, an email to invite, a new password twice) is not one to fill
  const others = form ? Array.from(form.querySelectorAll('input, textarea, select')).filter((el) =>
    shown(el) && el !== user && el !== password && !/^(hidden|checkbox|radio|submit|button|image|reset)$/.test(attr(el, 'type').toLowerCase())).length : 0;
  const labelRe = new RegExp('(' + submitWords.slice(0, signInLabels).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|') + ')', 'i');
  const formText = form ? norm(form.innerText) + ' ' + (submit ? norm(submit.innerText || submit.value) : '') : '';
  const says = labelRe.test(formText) || labelRe.test(norm(document.title));
  if (user) user.setAttribute('data-shotsmith-login', 'user');
  if (password) password.setAttribute('data-shotsmith-login', 'password');
  if (submit) submit.setAttribute('data-shotsmith-login', 'submit');
  let message = '';
  const failRe = new RegExp('(' + failureWords.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|') + ')', 'i');
  // an alert anywhere, or any short text beside a sign-in form still on the page
  const places = '[role=alert], [aria-live], .error, .alert, .invalid-feedback, .errorlist, .flash' +
    ((password || user) ? ', p, div, span' : '');
  for (const el of document.querySelectorAll(places)) {
    if (el.children.length > 3 || !shown(el)) continue;
    const t = norm(el.innerText);
    if (t && t.length < 200 && failRe.test(t)) { message = t; break; }
  }
  return {user: !!user, password: !!password, submit: !!submit, message, others, says};
}
