/* Lifeline website tag: docs/website-tag.md, the source field of docs/rest.md#events, docs/rest.md#website-endpoints.
   Served minified at {base_url}/api/in/<public_key>/track.js; the server puts the public address in
   place of the placeholder below as a JSON string. Plain ES2017, no dependencies, no build step.
   - anon_id: 32 hex characters from crypto.getRandomValues, kept in localStorage under
     lifeline_anon_id, or in a first-party cookie of that name when localStorage throws.
   - pageview: on load, and on pushState, replaceState and popstate when the path changed.
   - cta_click: a click inside an element marked data-lifeline-cta (properties.cta is its value), or on
     a download or install link: an href ending in .dmg .exe .msi .pkg .deb .rpm .appimage .zip .tar.gz,
     a download attribute, or an href or link text containing "download" or "install".
   - window.lifeline: identify, event, subscribe, support, anonId; calls queued in an array stub replay. */
(function (w, d) {
  'use strict';
  var ENDPOINT = __LIFELINE_ENDPOINT__;
  if (w.lifeline && typeof w.lifeline.anonId === 'function') return; // the tag is on the page twice
  if (/sk_liv[e]_/.test(ENDPOINT)) {
    // spelled so the served script never holds a secret key prefix
    console.warn(
      'lifeline: this tag was given a secret key; browsers must use the public address (wk_...), so it does nothing.',
    );
    return;
  }
  var KEY = 'lifeline_anon_id';
  var ID = /^[0-9a-f]{32}$/;
  var DOWNLOAD_FILE = /\.(dmg|exe|msi|pkg|deb|rpm|appimage|zip|tar\.gz)([?#]|$)/i;
  var DOWNLOAD_WORD = /download|install/i;
  var CLICK_IDS = [
    'gclid',
    'gbraid',
    'wbraid',
    'fbclid',
    'msclkid',
    'ttclid',
    'li_fat_id',
    'twclid',
    'dclid',
    'yclid',
    'rdt_cid',
    'sccid',
    'epik',
  ];

  function randomId() {
    var bytes = w.crypto.getRandomValues(new Uint8Array(16));
    var hex = '';
    for (var i = 0; i < bytes.length; i++) hex += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return hex;
  }

  function cookieId() {
    var found = d.cookie.match(/(?:^|;\s*)lifeline_anon_id=([0-9a-f]{32})/);
    var id = found ? found[1] : randomId();
    d.cookie =
      KEY + '=' + id + '; path=/; max-age=63072000; SameSite=Lax' + (location.protocol === 'https:' ? '; Secure' : '');
    return id;
  }

  function keepAnonId() {
    try {
      var id = w.localStorage.getItem(KEY);
      if (!ID.test(id)) w.localStorage.setItem(KEY, (id = randomId()));
      return id;
    } catch (e) {
      try {
        return cookieId();
      } catch (e2) {
        return randomId(); // no storage at all (a sandboxed frame): an id for this page only
      }
    }
  }

  var ANON = keepAnonId();

  function os() {
    var n = navigator;
    var ua = n.userAgent || '';
    var p = (n.userAgentData && n.userAgentData.platform) || n.platform || ua;
    if (/android|iphone|ipad|ipod|cros/i.test(p + ' ' + ua)) return 'other';
    if (/win/i.test(p)) return 'win';
    if (/mac/i.test(p)) return n.maxTouchPoints > 1 ? 'other' : 'mac'; // an iPad asking for the desktop site
    return /linux|x11/i.test(p) ? 'linux' : 'other';
  }

  function referrer() {
    try {
      var host = d.referrer && new URL(d.referrer).host;
      return host && host !== location.host ? host : undefined;
    } catch (e) {
      return undefined;
    }
  }

  function source() {
    var query = new URLSearchParams(location.search);
    var s = { path: location.pathname, os: os(), anon_id: ANON };
    var ref = referrer();
    if (ref) s.referrer = ref;
    var utm = {};
    var any = false;
    ['source', 'medium', 'campaign', 'term', 'content'].forEach(function (k) {
      var v = query.get('utm_' + k);
      if (v) {
        utm[k] = v;
        any = true;
      }
    });
    if (any) s.utm = utm;
    for (var i = 0; i < CLICK_IDS.length; i++) {
      var id = query.get(CLICK_IDS[i]);
      if (id) {
        s.click_id = id;
        break;
      }
    }
    return s;
  }

  function send(action, fields) {
    var body = Object.assign({}, fields);
    if (!body.anon_id) body.anon_id = ANON;
    body.source = Object.assign(source(), body.source);
    var url = ENDPOINT + '/' + action;
    var json = JSON.stringify(body);
    // fetch with keepalive outlives the page and may send JSON after a CORS preflight; browsers never
    // preflight a beacon, so a JSON beacon is refused by an origin-checked door: a beacon is the last resort.
    if (w.fetch) {
      return w
        .fetch(url, {
          method: 'POST',
          keepalive: true,
          headers: { 'Content-Type': 'application/json' },
          body: json,
          mode: 'cors',
          credentials: 'omit',
        })
        .then(function (r) {
          return r.json();
        })
        .catch(function (e) {
          return {
            ok: false,
            error: 'network_error',
            message: 'The post did not reach Lifeline (' + e + '); send it again.',
          };
        });
    }
    var sent = !!(navigator.sendBeacon && navigator.sendBeacon(url, json));
    return Promise.resolve(
      sent
        ? { ok: true, status: 'sent' }
        : { ok: false, error: 'network_error', message: 'This browser cannot post; nothing was sent.' },
    );
  }

  var lastPath;
  function pageview() {
    if (location.pathname === lastPath) return; // a replaceState to the same path, or a hash change
    lastPath = location.pathname;
    send('event', { type: 'pageview' });
  }

  ['pushState', 'replaceState'].forEach(function (name) {
    var original = history[name];
    history[name] = function () {
      var result = original.apply(this, arguments);
      pageview();
      return result;
    };
  });
  w.addEventListener('popstate', pageview);

  function text(el) {
    return (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 80);
  }

  // Capture phase, so a page handler that stops the click cannot hide it.
  d.addEventListener(
    'click',
    function (e) {
      var target = e.target;
      if (!target || !target.closest) return;
      var marked = target.closest('[data-lifeline-cta]');
      if (marked)
        return void send('event', {
          type: 'cta_click',
          properties: { cta: marked.getAttribute('data-lifeline-cta') || text(marked) },
        });
      var link = target.closest('a[href]');
      if (!link) return;
      var href = link.getAttribute('href');
      if (
        DOWNLOAD_FILE.test(href) ||
        link.hasAttribute('download') ||
        DOWNLOAD_WORD.test(href) ||
        DOWNLOAD_WORD.test(text(link))
      ) {
        send('event', { type: 'cta_click', properties: { href: href, text: text(link) } });
      }
    },
    true,
  );

  var api = {
    identify: function (fields) {
      return send('identify', fields);
    },
    event: function (type, fields) {
      return send('event', Object.assign({}, fields, { type: type }));
    },
    subscribe: function (fields) {
      return send('subscribe', fields);
    },
    support: function (fields) {
      return send('support', fields);
    },
    anonId: function () {
      return ANON;
    },
    // Pages that kept the stub's habit of lifeline.push(['identify', {...}]) still work after load.
    push: function (call) {
      return api[call[0]] && call[0] !== 'push' ? api[call[0]].apply(api, call.slice(1)) : undefined;
    },
  };
  var queued = w.lifeline;
  w.lifeline = api;
  if (d.readyState === 'loading') d.addEventListener('DOMContentLoaded', pageview);
  else pageview();
  if (Array.isArray(queued))
    queued.forEach(function (call) {
      if (Array.isArray(call)) api.push(call);
    });
})(window, document);
