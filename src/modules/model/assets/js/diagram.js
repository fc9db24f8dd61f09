// The model page's feature diagram, made interactive: it opens fitted to its frame, pans and
// zooms (mouse drag and wheel, touch drag and pinch, the buttons, the keyboard), expands and
// collapses a feature in place (the server draws the tree again with that feature opened or
// closed: /model/<id>/diagram.svg?open=…&close=…, the same drawing scripts get), and finds a
// feature by name (features.json gives its path, which is opened). Without this script the
// drawing scrolls in its frame and its links open subtrees, as before.
// The view is the SVG's viewBox: a point p of the drawing shows at (p - origin) * scale.
(function () {
  'use strict';

  const frame = document.getElementById('diagram-frame');
  if (!frame || !frame.dataset.svgUrl || !window.hubDiagramView) return;
  const tools = document.getElementById('diagram-tools');
  const status = document.getElementById('diagram-status');
  const state = JSON.parse(frame.dataset.state || '{}');
  state.open = state.open || [];
  state.close = state.close || [];
  const view = { x: 0, y: 0, k: 1, width: 0, height: 0 };
  /** The longest address the page writes (browsers, proxies and the server refuse far longer ones). */
  const MAX_ADDRESS = 2000;
  const MIN_SCALE = 0.02;
  const MAX_SCALE = 8;
  // Fitting and keeping an expansion in view, at the label floor (diagram-view.js, loaded first).
  const geometry = window.hubDiagramView;
  /** Frames are told in steps of 40 px, so that nearby sizes share the server's cached drawing. */
  const FIT_STEP = 40;

  const svg = () => frame.querySelector('svg.feature-diagram');
  const frameSize = () => ({ w: frame.clientWidth || 1, h: frame.clientHeight || 1 });

  function apply() {
    const s = svg();
    if (!s) return;
    const { w, h } = frameSize();
    s.setAttribute('viewBox', [view.x, view.y, w / view.k, h / view.k].map((v) => Math.round(v * 100) / 100).join(' '));
  }

  /** Takes over a freshly inserted drawing: its own size becomes the view's extent. */
  function adopt() {
    const s = svg();
    if (!s) return;
    const box = (s.getAttribute('viewBox') || '').split(/\s+/).map(Number);
    view.width = box[2] || Number(s.getAttribute('width')) || 1;
    view.height = box[3] || Number(s.getAttribute('height')) || 1;
    s.setAttribute('width', '100%');
    s.setAttribute('height', '100%');
    s.setAttribute('preserveAspectRatio', 'xMinYMin meet');
    const shown = s.querySelectorAll('g.feature').length;
    if (status) status.textContent = shown + ' feature' + (shown === 1 ? '' : 's') + ' shown';
  }

  function fit() {
    const root = anchorOf(frame.querySelector('g.feature'));
    Object.assign(view, geometry.fitted(view, frameSize(), root));
    apply();
  }

  /** The frame's size as the server is told it (fit=WxH), in steps; null for a frame not laid out yet. */
  function frameFit() {
    const { w, h } = frameSize();
    if (w < 200 || h < 200) return null;
    const step = (v) => Math.min(4000, Math.floor(v / FIT_STEP) * FIT_STEP);
    return step(w) + 'x' + step(h);
  }

  const inView = (el) => geometry.inside(view, frameSize(), el.getBBox());

  function keepInView(opened, fresh, keepOpened) {
    Object.assign(view, geometry.keptInView(view, frameSize(), opened ? opened.getBBox() : null, fresh.map((g) => g.getBBox()), keepOpened));
    apply();
  }

  /** Counts the person's own moves of the view (zoom, pan), so that a late redraw does not undo them. */
  let viewMoves = 0;

  function zoomAt(factor, sx, sy) {
    viewMoves++;
    const k = Math.max(MIN_SCALE, Math.min(MAX_SCALE, view.k * factor));
    view.x += sx / view.k - sx / k;
    view.y += sy / view.k - sy / k;
    view.k = k;
    apply();
  }
  const zoomCentre = (factor) => { const { w, h } = frameSize(); zoomAt(factor, w / 2, h / 2); };

  function pan(dx, dy) {
    viewMoves++;
    view.x -= dx / view.k;
    view.y -= dy / view.k;
    apply();
  }

  /** Shows the drawing point (px, py) at the frame's point (sx, sy). */
  function pin(px, py, sx, sy) {
    view.x = px - sx / view.k;
    view.y = py - sy / view.k;
    apply();
  }

  const boxOf = (name) => {
    for (const g of frame.querySelectorAll('g.feature')) if (g.dataset.feature === name) return g;
    return null;
  };
  const anchorOf = (g) => {
    const rect = g && g.querySelector('rect');
    return rect ? { x: Number(rect.getAttribute('x')), y: Number(rect.getAttribute('y')) } : null;
  };

  function query() {
    const q = new URLSearchParams();
    if (state.root) q.set('root', state.root);
    if (state.depth !== null && state.depth !== undefined) q.set('depth', String(state.depth));
    if (state.fit) q.set('fit', state.fit);
    for (const name of state.open) q.append('open', name);
    for (const name of state.close) q.append('close', name);
    return q;
  }

  let loads = 0;
  /** Draws the current state again; `keep` (a feature name) stays where it was on screen. */
  async function reload(keep) {
    const before = keep ? anchorOf(boxOf(keep)) : null;
    const screen = before ? { x: (before.x - view.x) * view.k, y: (before.y - view.y) * view.k } : null;
    const mine = ++loads;
    frame.setAttribute('aria-busy', 'true');
    try {
      let response = await fetch(frame.dataset.svgUrl + '?' + query(), { credentials: 'same-origin' });
      // Drawn in a worker of the scheduler: a 429 (this visitor's other heavy requests, the
      // configurator's and the source's among them, hold their share) is waited out, as its Retry-After says.
      for (let tries = 0; response.status === 429 && tries < 10 && mine === loads; tries++) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(30, Number(response.headers.get('retry-after')) || 2) * 1000));
        response = await fetch(frame.dataset.svgUrl + '?' + query(), { credentials: 'same-origin' });
      }
      if (!response.ok) throw new Error(String(response.status));
      const text = await response.text();
      if (mine !== loads) return false;
      const drawn = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
      const old = svg();
      if (old) old.replaceWith(document.importNode(drawn, true));
      else frame.append(document.importNode(drawn, true));
      adopt();
      const after = keep ? anchorOf(boxOf(keep)) : null;
      if (after && screen) pin(after.x, after.y, screen.x, screen.y);
      else apply();
      const svgLink = document.getElementById('diagram-svg-link');
      if (svgLink) svgLink.href = frame.dataset.svgUrl + (query().size > 0 ? '?' + query() : '');
      // The diagram's own keys only: the configurator keeps its decisions in the same address
      // (select, deselect, config), and an address past MAX_ADDRESS is not written (issue 37).
      const page = new URL(window.location.href);
      // fit is the frame's, not the view's: a shared link is drawn for the frame that opens it.
      for (const key of ['root', 'depth', 'open', 'close', 'fit']) page.searchParams.delete(key);
      for (const [key, value] of query()) if (key !== 'fit') page.searchParams.append(key, value);
      if (page.href.length <= MAX_ADDRESS) window.history.replaceState(window.history.state, '', page);
      return true;
    } catch (e) {
      if (status) status.textContent = 'The diagram could not be drawn again; try once more.';
      return false;
    } finally {
      if (mine === loads) frame.removeAttribute('aria-busy');
    }
  }

  const without = (list, name) => list.filter((n) => n !== name);

  const shownNames = () => new Set([...frame.querySelectorAll('g.feature')].map((g) => g.dataset.feature));

  /** Draws again with `name` expanded, keeps it and its new boxes in view, and focuses `focus` (a box's name). */
  async function expand(name, announce) {
    const before = shownNames();
    if (!(await reload(name))) return;
    const fresh = [...frame.querySelectorAll('g.feature')].filter((g) => !before.has(g.dataset.feature));
    const opened = boxOf(name);
    keepInView(opened, fresh, !announce);
    if (status && fresh.length > 0) status.textContent = fresh.length + ' more feature' + (fresh.length === 1 ? '' : 's') + ' shown' + (announce ? ' ' + announce : '');
    // From a "more" box (gone now): the first new box that can be focused, so that Tab goes on through them.
    const first = announce ? fresh.find((g) => g.querySelector('a') && inView(g)) : null;
    const link = (first || opened)?.querySelector('a');
    if (link) link.focus({ preventScroll: true });
  }

  function toggle(g) {
    const name = g.dataset.feature;
    if (g.classList.contains('collapsed')) {
      const wasClosed = state.close.includes(name);
      state.close = without(state.close, name);
      if (!wasClosed) state.open = [...without(state.open, name), name];
      expand(name, '');
      return;
    }
    if (!g.hasAttribute('data-open')) return;
    const wasOpened = state.open.includes(name);
    state.open = without(state.open, name);
    if (!wasOpened) state.close = [...without(state.close, name), name];
    reload(name).then(() => {
      const again = boxOf(name);
      const link = again && again.querySelector('a');
      if (link) link.focus({ preventScroll: true });
    });
  }

  /** A "+n more" box: its parent shows all its children (the server's limit of 1 000 aside). */
  function showMore(g) {
    const name = g.dataset.moreOf;
    state.close = without(state.close, name);
    state.open = [...without(state.open, name), name];
    expand(name, 'under ' + name);
  }

  // ---- pointer: drag to pan, pinch or wheel to zoom; a drag is not a click --------------------

  const pointers = new Map();
  let moved = 0;
  let pinch = null;

  frame.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) moved = 0;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1 };
    }
  });
  frame.addEventListener('pointermove', (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    const now = { x: e.clientX, y: e.clientY };
    pointers.set(e.pointerId, now);
    if (pointers.size === 1) {
      moved += Math.abs(now.x - last.x) + Math.abs(now.y - last.y);
      // Captured only once it is a drag, so a plain click still reaches the link under it.
      if (moved > 4 && !frame.hasPointerCapture(e.pointerId)) frame.setPointerCapture(e.pointerId);
      if (moved > 4) pan(now.x - last.x, now.y - last.y);
    } else if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const r = frame.getBoundingClientRect();
      zoomAt(distance / pinch.distance, (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
      pinch.distance = distance;
      moved = 100;
    }
  });
  const release = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
  };
  frame.addEventListener('pointerup', release);
  frame.addEventListener('pointercancel', release);

  frame.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = frame.getBoundingClientRect();
    const lines = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    zoomAt(Math.exp(-e.deltaY * lines * 0.0015), e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });

  frame.addEventListener('click', (e) => {
    const link = e.target.closest && e.target.closest('a');
    if (!link || !frame.contains(link)) return;
    e.preventDefault();
    if (moved > 4) return;
    if (link.classList.contains('up') || link.classList.contains('top')) {
      // "↑ parent" and "whole model": another root, drawn in place and fitted.
      const target = new URLSearchParams((link.getAttribute('href') || '').replace(/^[^?]*\?/, '').replace(/#.*$/, ''));
      state.root = target.get('root');
      state.open = [];
      state.close = [];
      reload(null).then(fit);
      return;
    }
    const more = link.closest('g.more');
    if (more) { showMore(more); return; }
    const g = link.closest('g.feature');
    if (g) toggle(g);
  });

  // ---- keyboard and buttons ------------------------------------------------------------------

  frame.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = 60;
    const keys = {
      ArrowLeft: () => pan(step, 0), ArrowRight: () => pan(-step, 0),
      ArrowUp: () => pan(0, step), ArrowDown: () => pan(0, -step),
      '+': () => zoomCentre(1.25), '=': () => zoomCentre(1.25), '-': () => zoomCentre(0.8),
      0: fit, 1: () => { const { w, h } = frameSize(); zoomAt(1 / view.k, w / 2, h / 2); },
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  });

  const actions = {
    'zoom-in': () => zoomCentre(1.25),
    'zoom-out': () => zoomCentre(0.8),
    fit,
    actual: () => { const { w, h } = frameSize(); zoomAt(1 / view.k, w / 2, h / 2); },
  };
  tools?.addEventListener('click', (e) => {
    const button = e.target.closest && e.target.closest('[data-diagram-action]');
    if (button) actions[button.dataset.diagramAction]?.();
  });

  // ---- search by name ------------------------------------------------------------------------

  const input = document.getElementById('diagram-search-input');
  const results = document.getElementById('diagram-search-results');
  let searchTimer;
  let searchSeq = 0;

  async function search(text) {
    const mine = ++searchSeq;
    if (text.trim() === '') { results.hidden = true; results.replaceChildren(); return []; }
    let response = await fetch(frame.dataset.featuresUrl + '?q=' + encodeURIComponent(text), { credentials: 'same-origin' });
    // Searched in a worker of the scheduler: a 429 is waited out (Retry-After) while the search is still the latest.
    for (let tries = 0; response.status === 429 && tries < 10 && mine === searchSeq; tries++) {
      if (status) status.textContent = 'Searching… (waiting for your other requests on this model)';
      await new Promise((resolve) => setTimeout(resolve, Math.min(30, Number(response.headers.get('retry-after')) || 2) * 1000));
      response = await fetch(frame.dataset.featuresUrl + '?q=' + encodeURIComponent(text), { credentials: 'same-origin' });
    }
    if (!response.ok || mine !== searchSeq) return [];
    const body = await response.json();
    results.replaceChildren(...body.features.map((f) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'list-group-item list-group-item-action py-1 small text-break-all';
      button.dataset.name = f.name;
      button.dataset.path = JSON.stringify(f.path);
      button.textContent = f.name;
      if (f.path.length > 0) {
        const where = document.createElement('span');
        where.className = 'd-block text-muted';
        where.textContent = 'in ' + f.path[f.path.length - 1];
        button.append(where);
      }
      item.append(button);
      return item;
    }));
    results.hidden = body.features.length === 0;
    if (status) status.textContent = body.features.length === 0 ? 'No feature named like “' + text + '”' : body.features.length + ' found';
    return body.features;
  }

  /** Opens the path to a feature in place, centres it and marks it. */
  async function reveal(name, path) {
    if (state.root && state.root !== name && !path.includes(state.root)) state.root = null;
    const from = state.root ? path.indexOf(state.root) : 0;
    for (const ancestor of path.slice(Math.max(0, from))) {
      state.close = without(state.close, ancestor);
      if (!state.open.includes(ancestor)) state.open.push(ancestor);
    }
    results.hidden = true;
    if (!(await reload(null))) return;
    const g = boxOf(name);
    const at = anchorOf(g);
    if (!g || !at) return;
    view.k = Math.max(view.k, 1);
    const { w, h } = frameSize();
    pin(at.x, at.y, w / 2 - 40, h / 2);
    for (const old of frame.querySelectorAll('g.feature.is-found')) old.classList.remove('is-found');
    g.classList.add('is-found');
    if (status) status.textContent = 'Found ' + name;
    const link = g.querySelector('a');
    (link || frame).focus({ preventScroll: true });
  }

  if (input && results) {
    input.addEventListener('input', () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => search(input.value), 200);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' && !results.hidden) { e.preventDefault(); results.querySelector('button')?.focus(); }
      if (e.key === 'Escape') results.hidden = true;
    });
    document.getElementById('diagram-search')?.addEventListener('submit', async (e) => {
      e.preventDefault();
      clearTimeout(searchTimer);
      const found = await search(input.value);
      if (found.length > 0) reveal(found[0].name, found[0].path);
    });
    results.addEventListener('click', (e) => {
      const button = e.target.closest && e.target.closest('button[data-name]');
      if (button) reveal(button.dataset.name, JSON.parse(button.dataset.path));
    });
    results.addEventListener('keydown', (e) => {
      const buttons = [...results.querySelectorAll('button')];
      const i = buttons.indexOf(document.activeElement);
      if (e.key === 'ArrowDown' && i >= 0) { e.preventDefault(); buttons[Math.min(i + 1, buttons.length - 1)].focus(); }
      if (e.key === 'ArrowUp' && i >= 0) { e.preventDefault(); (i === 0 ? input : buttons[i - 1]).focus(); }
      if (e.key === 'Escape') { results.hidden = true; input.focus(); }
    });
  }

  // The analysis finished (model.js): the same view again, now coloured.
  document.addEventListener('hub:analysis-finished', () => { reload(null); });

  frame.classList.add('is-interactive');
  if (tools) tools.hidden = false;
  adopt();
  fit();
  // The page drew for a desktop frame; a phone's (or a wider) frame gets the drawing folded for it.
  let fitTimer;
  const refit = () => {
    const mine = frameFit();
    if (!mine || mine === state.fit) return;
    state.fit = mine;
    // The folded drawing may come after the person began to zoom or pan (a loaded hub draws it
    // in a worker, a 429 is waited out): fitted only if they have not, their view is kept else.
    const moves = viewMoves;
    reload(null).then(() => { if (viewMoves === moves) fit(); });
  };
  refit();
  window.addEventListener('resize', () => { apply(); clearTimeout(fitTimer); fitTimer = setTimeout(refit, 300); });
})();
