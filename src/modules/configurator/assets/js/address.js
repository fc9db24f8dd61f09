// The configurator's state in the page's address (issue 24; issue 37, item 2): `?select=A,B&deselect=C`
// while that stays short; a longer one (a complete configuration of a large model) is stored by
// the server and the address names it by a short key, `?config=<key>`. Loaded before configurator.js.
(() => {
  /**
   * The longest address the page makes: longer ones are refused by browsers, proxies and servers
   * (a complete configuration of automotive2_4 written out is about 500,000 characters, answered 431).
   */
  const MAX_URL = 2000;

  // Name lists as the server reads them (packages/uvl/src/name-list.ts): comma-separated, a name
  // holding a comma (or spaces at its ends) in double quotes, as in UVL.
  function nameList(names) {
    return names.map((n) => (/,|^\s|\s$|^"/.test(n) || n === '' ? `"${n}"` : n)).join(',');
  }

  function parseNameList(text) {
    const names = [];
    let at = 0;
    while (at < text.length) {
      const quoted = /^\s*"([^"]*)"\s*(?:,|$)/.exec(text.slice(at));
      if (quoted) {
        names.push(quoted[1]);
        at += quoted[0].length;
        continue;
      }
      const comma = text.indexOf(',', at);
      const part = text.slice(at, comma === -1 ? text.length : comma).trim();
      if (part !== '') names.push(part);
      at = comma === -1 ? text.length : comma + 1;
    }
    return names;
  }

  function urlWith(d) {
    const url = new URL(location.href);
    for (const key of ['select', 'deselect', 'config']) url.searchParams.delete(key);
    if (d.selected.length) url.searchParams.set('select', nameList(d.selected));
    if (d.deselected.length) url.searchParams.set('deselect', nameList(d.deselected));
    return url;
  }

  /**
   * The address of one file's configurator; `onError` is told when a state could not be stored.
   * Without `store` (a review link: nothing is stored for a reviewer) a state too long for the
   * address leaves the address as it was.
   */
  function forFile(fileId, onError, { store = true } = {}) {
    /** Counts the states shown: a slow store of an older one does not overwrite a newer address. */
    let shown = 0;

    /** The decisions in the address: written out when short, else stored and named by their key. */
    async function show(d) {
      const step = ++shown;
      const url = urlWith(d);
      if (url.href.length <= MAX_URL) {
        window.history.replaceState(null, '', url);
        return;
      }
      if (!store) return;
      try {
        const res = await window.hub.fetch(`/configurator/${fileId}/shares`, {
          method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(d),
        });
        const json = await res.json().catch(() => ({}));
        if (!res.ok) throw new Error(json.message || `The server answered ${res.status}.`);
        if (step !== shown) return;
        const short = urlWith({ selected: [], deselected: [] });
        short.searchParams.set('config', json.key);
        window.history.replaceState(null, '', short);
      } catch (error) {
        // The address keeps the last state it could hold; the page itself shows the new one.
        if (step === shown) onError(`the address could not be updated: ${error.message}`);
      }
    }

    /** The decisions the address names: written out, or stored under `?config=<key>`. */
    async function read() {
      const params = new URLSearchParams(location.search);
      const key = store ? params.get('config') : null;
      if (key) {
        const res = await fetch(`/configurator/${fileId}/shares/${encodeURIComponent(key)}`, { headers: { accept: 'application/json' } });
        const json = await res.json().catch(() => ({}));
        if (!res.ok) throw new Error(json.message || `The shared configuration could not be loaded (${res.status}).`);
        return { selected: json.selected || [], deselected: json.deselected || [] };
      }
      const list = (name) => parseNameList(params.get(name) || '');
      return { selected: list('select'), deselected: list('deselect') };
    }

    return { show, read };
  }

  window.configuratorAddress = { MAX_URL, nameList, parseNameList, forFile };
})();
