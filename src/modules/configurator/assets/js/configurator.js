// The configurator on the model page (issue 24): the feature tree with select / deselect / clear
// per feature, every feature's state after each decision (asked of the server: a worker holds the
// model compiled), why, undo, complete at random, the state in the URL (a long one stored and
// named by a short key: issue 37), and exports.
(() => {
  const section = document.getElementById('configurator');
  if (!section) return;
  const fileId = section.dataset.fileId;
  const treeEl = document.getElementById('cfg-tree');
  const remainingEl = document.getElementById('cfg-remaining');
  const conflictEl = document.getElementById('cfg-conflict');
  const undoButton = document.getElementById('cfg-undo');
  const { MAX_URL, nameList } = window.configuratorAddress;
  // Through a review link (issue 37) every call goes under the link, answered for the dataset's owner.
  const apiBase = section.dataset.apiBase;
  const urls = apiBase
    ? { configure: `${apiBase}/configure`, tree: `${apiBase}/tree.json`, probabilities: `${apiBase}/probabilities.json` }
    : { configure: `/api/v1/files/${fileId}/configure`, tree: `/configurator/${fileId}/tree.json`, probabilities: `/configurator/${fileId}/probabilities.json` };
  const address = window.configuratorAddress.forFile(fileId, (message) => remainingEl.append(` (${message})`), { store: !apiBase });
  /** Levels open when the page loads; deeper ones open on demand (large models). */
  const OPEN_LEVELS = 2;

  let features = []; // [name, parent, group] in pre-order
  let treeOrder = []; // the names alone, in the same order (compact answers list states so)
  const childrenOf = new Map();
  let states = {};
  let probability = {};
  let decisions = { selected: [], deselected: [] };
  /**
   * Earlier steps: their decisions, the server's answer (count, status) and the states the next
   * step changed, as they were before it. Undo puts them back without asking the server (a large
   * model's step takes a while); a few dozen states per step, so every step is kept.
   */
  const history = [];

  const el = (tag, attrs = {}, text) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  async function post(body) {
    for (let tries = 1; ; tries++) {
      const res = await fetch(urls.configure, {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body),
      });
      const json = await res.json().catch(() => ({}));
      // 429: this visitor's share of heavy jobs is taken (extensions section 10): asked again when
      // told, a few times, rather than shown as a failure.
      if (res.status === 429 && tries < 5) {
        await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') || 1)));
        continue;
      }
      if (!res.ok) throw new Error(json.message || `The server answered ${res.status}.`);
      return json;
    }
  }

  const { poll } = window.configuratorAnswers;

  // ---- the tree ------------------------------------------------------------------------------

  function rowOf(index) {
    const [name] = features[index];
    const li = el('li', { 'data-feature': name, 'data-index': String(index) });
    const row = el('div', { class: 'cfg-row' });
    const kids = childrenOf.get(index) || [];
    if (kids.length > 0) {
      const toggle = el('button', { type: 'button', class: 'btn btn-sm btn-link cfg-toggle p-0', 'data-act': 'toggle', 'aria-expanded': 'false', 'aria-label': `Show the ${kids.length} children of ${name}` }, '▸');
      row.append(toggle);
    } else row.append(el('span', { class: 'cfg-toggle', 'aria-hidden': 'true' }));
    row.append(el('span', { class: 'cfg-name' }, name));
    row.append(el('span', { class: 'cfg-state', 'data-state': 'open' }, 'open'));
    row.append(el('span', { class: 'cfg-prob' }, ''));
    const actions = el('span', { class: 'btn-group btn-group-sm cfg-actions', role: 'group', 'aria-label': `Decide ${name}` });
    actions.append(
      el('button', { type: 'button', class: 'btn btn-outline-success', 'data-act': 'select', 'aria-label': `Select ${name}`, title: 'Select' }, '✓'),
      el('button', { type: 'button', class: 'btn btn-outline-danger', 'data-act': 'deselect', 'aria-label': `Deselect ${name}`, title: 'Deselect' }, '✗'),
      el('button', { type: 'button', class: 'btn btn-outline-secondary', 'data-act': 'clear', 'aria-label': `Clear the decision on ${name}`, title: 'Clear' }, '○'),
    );
    row.append(actions);
    row.append(el('button', { type: 'button', class: 'btn btn-sm btn-link p-0 cfg-why-button', 'data-act': 'why', hidden: '' }, 'why?'));
    li.append(row, el('div', { class: 'cfg-why', hidden: '' }));
    paint(li);
    return li;
  }

  function expand(li, open) {
    const index = Number(li.dataset.index);
    const toggle = li.querySelector(':scope > .cfg-row > [data-act="toggle"]');
    if (!toggle) return;
    let list = li.querySelector(':scope > ul');
    if (open && !list) {
      list = el('ul');
      for (const k of childrenOf.get(index)) list.append(rowOf(k));
      li.append(list);
    }
    if (list) list.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? '▾' : '▸';
  }

  function expandToDepth(li, depth) {
    if (depth <= 0) return;
    expand(li, true);
    for (const child of li.querySelectorAll(':scope > ul > li')) expandToDepth(child, depth - 1);
  }

  function paint(li) {
    const name = li.dataset.feature;
    const state = states[name] || 'open';
    const badge = li.querySelector(':scope > .cfg-row > .cfg-state');
    badge.dataset.state = state;
    badge.textContent = state;
    for (const [act, on] of [['select', 'selected'], ['deselect', 'deselected']]) li.querySelector(`:scope > .cfg-row [data-act="${act}"]`).setAttribute('aria-pressed', String(state === on));
    li.querySelector(':scope > .cfg-row > .cfg-prob').textContent = probabilityText(name);
    li.querySelector(':scope > .cfg-row > .cfg-why-button').hidden = !(state === 'forced' || state === 'excluded');
    const why = li.querySelector(':scope > .cfg-why');
    Object.assign(why, { hidden: true, textContent: '' });
  }

  // The engine's text where it is extreme (a variant feature never reads 0% or 100%: "2.1 × 10^-44",
  // "> 0.999"; extensions 6a), a percentage between; an older summary holds doubles only.
  function probabilityText(name) {
    const shown = probability.shown ? probability.shown[name] : undefined;
    const p = probability.probability ? probability.probability[name] : probability[name];
    if (typeof p !== 'number') return '';
    if (shown !== undefined && !/^0\.\d{3}$/.test(shown) && shown !== '0' && shown !== '1') return shown;
    return `${(p * 100).toFixed(1)}%`;
  }

  /** The probabilities' page form: values in the order of the names sorted, the engine's texts of the extreme ones. */
  function byName(p) {
    const names = [...treeOrder].sort();
    return { probability: Object.fromEntries(names.map((name, i) => [name, p.probability[i]])), shown: p.shown, bins: p.bins };
  }

  const paintAll = () => { for (const li of treeEl.querySelectorAll('li[data-feature]')) paint(li); };
  /** The probabilities only: they may come after a "why?" was opened, which stays open. */
  const paintProbabilities = () => {
    for (const li of treeEl.querySelectorAll('li[data-feature]')) li.querySelector(':scope > .cfg-row > .cfg-prob').textContent = probabilityText(li.dataset.feature);
  };

  /** Repaints the drawn rows of the features whose state changed (all rows when most did). */
  function paintChanged(changes) {
    const names = Object.keys(changes);
    if (names.length > 200) return paintAll();
    for (const name of names) {
      const li = treeEl.querySelector(`li[data-feature="${CSS.escape(name)}"]`);
      if (li) paint(li);
    }
  }

  // ---- decisions -----------------------------------------------------------------------------

  function showConflict(conflict) {
    conflictEl.textContent = '';
    conflictEl.append(el('strong', {}, 'Refused: no configuration has these decisions together. '), document.createTextNode(conflict.decisions.join(', ')));
    if (conflict.constraints.length > 0) conflictEl.append(reasonList(conflict.constraints));
    conflictEl.hidden = false;
  }

  /** Reasons as a list; a constraint line links to its source line. */
  function reasonList(reasons) {
    const ul = el('ul', { class: 'mb-0' });
    for (const reason of reasons) {
      const li = el('li');
      const line = /^Line (\d+): (.*)$/.exec(reason);
      if (line) {
        li.append(el('a', { href: `#L${line[1]}` }, `Line ${line[1]}`), document.createTextNode(': '), el('code', {}, line[2]));
      } else li.textContent = reason;
      ul.append(li);
    }
    return ul;
  }

  let lastAnswer = null;

  /**
   * Shows a consistent answer for `next`; `remember` puts the current step on the undo history.
   * The page's steps name the state it holds (`since`) and get what changed (`changed`, issue 37):
   * a few dozen states instead of all 18,616 of automotive2_4. A full answer (`features`: the
   * first step) is applied as the changes it makes.
   */
  function apply(next, answer, remember) {
    conflictEl.hidden = true;
    const changes = window.configuratorAnswers.changesOf(answer, states, treeOrder);
    const before = {};
    for (const name in changes) before[name] = states[name] ?? 'open';
    if (remember) history.push({ decisions, answer: lastAnswer, changes: before });
    decisions = { selected: [...next.selected], deselected: [...next.deselected] };
    lastAnswer = { ...answer, features: undefined, changed: undefined, states: undefined };
    Object.assign(states, changes);
    lastRemaining = answer.remaining;
    undoButton.disabled = history.length === 0;
    showRemaining();
    void address.show(decisions);
    paintChanged(changes);
    recountLater();
  }

  /**
   * The decisions of the state the page shows, when it shows one: a step then gets what changed.
   * The first step, and a step from a long configuration (`since` would send its decisions a
   * second time: 18,616 names after "complete at random"), ask for the compact answer instead (a
   * letter per feature in the tree's order, a few KB compressed as well).
   */
  const SINCE_MAX_DECISIONS = 500;
  const sinceNow = () => (lastAnswer && decisions.selected.length + decisions.deselected.length <= SINCE_MAX_DECISIONS ? { since: decisions } : { compact: true });

  /** While the model compiles, the same step is asked again now and then: its count comes once the compile is done. */
  const RECOUNT_MS = 3000;
  let recount;
  function recountLater() {
    clearTimeout(recount);
    if (lastAnswer?.remaining_status !== 'counting') return;
    const asked = decisions;
    recount = setTimeout(async () => {
      if (pending || decisions !== asked) return recountLater();
      const answer = await post({ ...asked, ...sinceNow() }).catch(() => null);
      // A step taken meanwhile shows "Propagating…" until its own answer: not this older count.
      if (pending && decisions === asked) return recountLater();
      if (!answer?.consistent || decisions !== asked) return;
      lastAnswer = { ...answer, changed: undefined };
      lastRemaining = answer.remaining;
      showRemaining();
      recountLater();
    }, RECOUNT_MS);
  }

  /**
   * While a step is asked, the controls that change the decisions do nothing: a second click
   * would race the first and the answers could arrive in the other order. The tree's handler
   * ignores its buttons while `pending` and the section is aria-busy (the tree dimmed, CSS);
   * only the few tool buttons are disabled. Disabling every ✓ ✗ ○ of the tree instead cost the
   * browser about a second of style work per step and again after it on linux-2.6.33.3 (9 600
   * buttons), a tab frozen twice for each decision.
   */
  let pending = false;
  function setPending(on) {
    pending = on;
    section.setAttribute('aria-busy', String(on));
    for (const b of section.querySelectorAll('#cfg-reset, #cfg-random')) b.disabled = on;
    undoButton.disabled = on || history.length === 0;
  }

  /** Asks the server for `next`; applied only when consistent, else refused with the conflict shown. */
  async function decide(next, remember = true) {
    setPending(true);
    try {
      return await decideNow(next, remember);
    } finally {
      setPending(false);
    }
  }

  async function decideNow(next, remember) {
    remainingEl.textContent = 'Propagating…';
    try {
      const answer = await post({ ...next, ...sinceNow() });
      if (!answer.consistent) {
        showConflict(answer.conflict);
        showRemaining();
        return false;
      }
      apply(next, answer, remember);
      return true;
    } catch (error) {
      remainingEl.textContent = error.message;
      return false;
    }
  }

  let lastRemaining = null;
  /** Digits shown as they are; longer counts (automotive2_4 has 1535 digits) as a power of ten, exact in the title and the JSON export. */
  const MAX_DIGITS = 15;
  function showRemaining() {
    remainingEl.textContent = '';
    remainingEl.removeAttribute('title');
    if (lastRemaining === null) {
      // Every state is exact without the count (section 6a): say truthfully why there is no number.
      const status = lastAnswer?.remaining_status;
      if (status === 'counting') remainingEl.textContent = 'Configurations remaining: being counted (the model is compiling)…';
      else if (status === 'not counted') remainingEl.textContent = 'Configurations remaining: not counted (the model could not be compiled within the time budget); every state is exact.';
      else if (status === 'timeout') remainingEl.textContent = 'Configurations remaining: not counted within the time budget.';
      return;
    }
    const unit = ` configuration${lastRemaining === '1' ? '' : 's'} remaining`;
    if (lastRemaining.length <= MAX_DIGITS) {
      remainingEl.textContent = `${lastRemaining}${unit}`;
      return;
    }
    remainingEl.title = `Exactly ${lastRemaining}`;
    remainingEl.append(`about ${lastRemaining[0]}.${lastRemaining.slice(1, 3)} × 10`, el('sup', {}, String(lastRemaining.length - 1)), unit);
  }

  function decisionFor(name, act) {
    const selected = decisions.selected.filter((n) => n !== name);
    const deselected = decisions.deselected.filter((n) => n !== name);
    if (act === 'select') selected.push(name);
    if (act === 'deselect') deselected.push(name);
    return { selected, deselected };
  }

  async function explain(li) {
    const box = li.querySelector(':scope > .cfg-why');
    if (!box.hidden) { box.hidden = true; return; }
    box.hidden = false;
    box.textContent = 'Explaining…';
    try {
      const answer = await post({ ...decisions, why: li.dataset.feature, ...sinceNow() });
      box.textContent = '';
      box.append(el('span', {}, `${li.dataset.feature} is ${answer.why.state} because of:`), reasonList(answer.why.why || []));
    } catch (error) {
      box.textContent = error.message;
    }
  }

  treeEl.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-act]');
    if (!button) return;
    const li = button.closest('li[data-feature]');
    const act = button.dataset.act;
    if (act === 'toggle') expand(li, button.getAttribute('aria-expanded') !== 'true');
    else if (act === 'why') void explain(li);
    else if (!pending) void decide(decisionFor(li.dataset.feature, act));
  });

  undoButton.addEventListener('click', () => {
    if (pending) return;
    const step = history.pop();
    if (!step) return;
    apply(step.decisions, { ...step.answer, changed: step.changes }, false);
  });
  document.getElementById('cfg-reset').addEventListener('click', () => { if (!pending) void decide({ selected: [], deselected: [] }); });

  document.getElementById('cfg-random')?.addEventListener('click', async () => {
    if (pending) return;
    if (lastRemaining === '1') { remainingEl.textContent = 'The configuration is already complete: 1 configuration remaining.'; return; }
    const q = new URLSearchParams({ kind: 'uniform', n: '1', seed: String(Math.floor(Math.random() * 2 ** 31)) });
    if (decisions.selected.length) q.set('select', nameList(decisions.selected));
    if (decisions.deselected.length) q.set('deselect', nameList(decisions.deselected));
    // The draw's conditions go in its address: too many of them would make one the server refuses.
    if (`${location.origin}/api/v1/files/${fileId}/samples?${q}`.length > MAX_URL) {
      remainingEl.textContent = 'Too many decisions to complete at random: clear some, or all, first.';
      return;
    }
    remainingEl.textContent = 'Drawing a configuration…';
    try {
      const sample = await poll(`/api/v1/files/${fileId}/samples?${q}`);
      const chosen = new Set(sample.configurations[0] || []);
      await decide({ selected: sample.features.filter((f) => chosen.has(f)), deselected: sample.features.filter((f) => !chosen.has(f)) });
    } catch (error) {
      remainingEl.textContent = error.message;
    }
  });

  // ---- search ------------------------------------------------------------------------------

  document.getElementById('cfg-search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = document.getElementById('cfg-search').value.trim().toLowerCase();
    if (!text) return;
    const index = features.findIndex(([name]) => name.toLowerCase().includes(text));
    if (index < 0) { remainingEl.textContent = `No feature contains “${text}”.`; return; }
    const path = [];
    for (let i = index; i >= 0; i = features[i][1]) path.unshift(i);
    let li = treeEl.querySelector(':scope > li');
    for (const i of path.slice(1)) {
      expand(li, true);
      li = li.querySelector(`:scope > ul > li[data-index="${i}"]`);
    }
    for (const old of treeEl.querySelectorAll('.cfg-hit')) old.classList.remove('cfg-hit');
    li.classList.add('cfg-hit');
    li.scrollIntoView({ block: 'center' });
    li.querySelector('button[data-act="select"]').focus();
  });

  // ---- exports (export.js) ------------------------------------------------------------------

  window.configuratorExport.attach(section, () => ({ decisions, states, remaining: lastRemaining }));

  // ---- start -------------------------------------------------------------------------------

  async function start() {
    const tree = await poll(urls.tree, (tries, busy) => {
      if (busy) remainingEl.textContent = 'Busy with your earlier requests: the tree is asked for again in a moment…';
    });
    features = tree.features;
    treeOrder = features.map(([name]) => name);
    features.forEach(([, parent], i) => { if (parent >= 0) (childrenOf.get(parent) || childrenOf.set(parent, []).get(parent)).push(i); });
    if (features.length === 0) { remainingEl.textContent = 'The model has no features.'; return; }
    treeEl.append(rowOf(0));
    expandToDepth(treeEl.firstElementChild, OPEN_LEVELS);
    let asked = { selected: [], deselected: [] };
    let unreadable = null;
    try {
      asked = await address.read();
    } catch (error) {
      unreadable = error.message;
    }
    const ok = await decide(asked, false);
    if (!ok && (asked.selected.length || asked.deselected.length)) await decide({ selected: [], deselected: [] }, false);
    if (unreadable) {
      conflictEl.textContent = unreadable;
      conflictEl.hidden = false;
    }
    // Without the names (the tree has them): in the order of the names sorted (issue 37).
    poll(`${urls.probabilities}?order=name`).then((p) => {
      probability = p.order === 'name' ? byName(p) : p;
      paintProbabilities();
      // The fact label's plot was drawn before the commonality was stored: drawn again now.
      const plot = document.getElementById('commonality-plot-img');
      if (plot) plot.src = `/configurator/${fileId}/commonality.svg?ready=1`;
    }).catch(() => {});
  }

  start().catch((error) => { remainingEl.textContent = error.message; });
})();
