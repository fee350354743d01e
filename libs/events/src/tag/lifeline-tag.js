/* Lifeline website tag (interface.md "Website tag"). Served minified at /api/in/<public_key>/track.js.
   Keeps the browser id (anon_id), posts pageview on load and on client-side navigation, cta_click for
   download or install links and elements marked data-lifeline-cta, and fills source. No dependencies. */
(function (w, d) {
  'use strict';
  var ENDPOINT = __LIFELINE_ENDPOINT__;
  if (/sk_liv[e]_/.test(ENDPOINT)) { // spelled so the served script never contains a key prefix
    console.warn('lifeline: a secret key must never be used in a browser; the tag takes the public address.');
    return;
  }
  var KEY = 'lifeline_anon_id';
  var DOWNLOAD = /\.(dmg|exe|msi|pkg|deb|rpm|appimage|zip|tar\.gz)([?#]|$)/i;
  var WORDS = /\b(download|install)\b/i;
  var CLICK_IDS = ['gclid', 'fbclid', 'msclkid', 'ttclid', 'li_fat_id', 'twclid', 'dclid'];

  function randomId() {
    var bytes = new Uint8Array(16);
    w.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join('');
  }

  function keepAnonId() {
    var id;
    try {
      id = w.localStorage.getItem(KEY);
      if (!id) w.localStorage.setItem(KEY, (id = randomId()));
    } catch (e) {
      try {
        var found = d.cookie.match(/(?:^|; )lifeline_anon_id=([^;]+)/);
        id = found ? decodeURIComponent(found[1]) : randomId();
        d.cookie = KEY + '=' + id + '; path=/; max-age=63072000; SameSite=Lax';
      } catch (e2) {
        id = id || randomId(); // no storage at all (sandboxed frame): this page view only
      }
    }
    return id;
  }

  var ANON = keepAnonId();

  function os() {
    var p = ((navigator.userAgentData && navigator.userAgentData.platform) || navigator.platform || '').toLowerCase();
    return /win/.test(p) ? 'win' : /mac/.test(p) ? 'mac' : /linux|x11/.test(p) && !/android/i.test(navigator.userAgent) ? 'linux' : 'other';
  }

  function source() {
    var query = new URLSearchParams(location.search);
    var s = { path: location.pathname, os: os(), anon_id: ANON };
    var utm = {};
    ['source', 'medium', 'campaign', 'term', 'content'].forEach(function (k) {
      var v = query.get('utm_' + k);
      if (v) utm[k] = v;
    });
    if (Object.keys(utm).length) s.utm = utm;
    for (var i = 0; i < CLICK_IDS.length; i++) {
      if (query.get(CLICK_IDS[i])) { s.click_id = query.get(CLICK_IDS[i]); break; }
    }
    try {
      var host = d.referrer && new URL(d.referrer).host;
      if (host && host !== location.host) s.referrer = host;
    } catch (e) { /* no referrer */ }
    return s;
  }

  function send(action, body) {
    body.anon_id = body.anon_id || ANON;
    body.source = Object.assign(source(), body.source);
    var url = ENDPOINT + '/' + action;
    var json = JSON.stringify(body);
    // fetch with keepalive survives page unload and sends the JSON the door expects with a CORS
    // preflight; a beacon is only the fallback, as browsers never preflight beacons.
    if (w.fetch) {
      return fetch(url, { method: 'POST', keepalive: true, mode: 'cors', credentials: 'omit', headers: { 'Content-Type': 'application/json' }, body: json })
        .then(function (r) { return r.json(); })
        .catch(function (e) { return { ok: false, error: 'network', message: String(e) }; });
    }
    if (navigator.sendBeacon) navigator.sendBeacon(url, json);
    return Promise.resolve({ ok: true, status: 'sent' });
  }

  var lastPage;
  function pageview() {
    var page = location.pathname + location.search;
    if (page === lastPage) return;
    lastPage = page;
    send('event', { type: 'pageview' });
  }

  ['pushState', 'replaceState'].forEach(function (name) {
    var original = history[name];
    history[name] = function () {
      var result = original.apply(this, arguments);
      setTimeout(pageview, 0);
      return result;
    };
  });
  w.addEventListener('popstate', pageview);

  d.addEventListener('click', function (e) {
    var target = e.target && e.target.closest ? e.target : null;
    if (!target) return;
    var marked = target.closest('[data-lifeline-cta]');
    if (marked) {
      return send('event', { type: 'cta_click', properties: { cta: marked.getAttribute('data-lifeline-cta') || marked.textContent.trim().slice(0, 80) } });
    }
    var link = target.closest('a[href]');
    if (!link) return;
    var href = link.getAttribute('href');
    if (DOWNLOAD.test(href) || WORDS.test(href) || WORDS.test(link.textContent)) {
      send('event', { type: 'cta_click', properties: { href: href, text: link.textContent.trim().slice(0, 80) } });
    }
  }, true);

  var api = {
    identify: function (fields) { return send('identify', Object.assign({}, fields)); },
    event: function (type, fields) { return send('event', Object.assign({}, fields, { type: type })); },
    subscribe: function (fields) { return send('subscribe', Object.assign({}, fields)); },
    support: function (fields) { return send('support', Object.assign({}, fields)); },
    anonId: function () { return ANON; }
  };
  var queued = w.lifeline;
  w.lifeline = api;
  if (queued && queued.length) {
    for (var i = 0; i < queued.length; i++) {
      if (api[queued[i][0]]) api[queued[i][0]].apply(api, queued[i].slice(1));
    }
  }
  if (d.readyState === 'loading') d.addEventListener('DOMContentLoaded', pageview);
  else pageview();
})(window, document);
