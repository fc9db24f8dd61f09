// What a configure answer changes in the states the configurator's page shows (issue 37, item 1).
// The page's first step asks for the compact answer (`states`: one letter per feature in the
// tree's order), later steps for the changes since the state it holds (`changed`); an answer of
// the API's full form (`features`) is compared with what is shown. And the poll of the page's
// results that a worker computes (202 until they are ready).
window.configuratorAnswers = (() => {
  const LETTERS = { s: 'selected', d: 'deselected', f: 'forced', x: 'excluded', o: 'open' };

  /** `shown`: the states the page shows by name; `order`: the tree's names in order. */
  function changesOf(answer, shown, order) {
    if (answer.changed) return answer.changed;
    const changes = {};
    if (answer.states !== undefined) {
      order.forEach((name, i) => {
        const state = LETTERS[answer.states[i]];
        if (shown[name] !== state) changes[name] = state;
      });
      return changes;
    }
    for (const name in answer.features) if (shown[name] !== answer.features[name]) changes[name] = answer.features[name];
    return changes;
  }

  /** A 202-then-200 URL polled until ready (Retry-After), `onWait` told each time. */
  async function poll(url, onWait) {
    for (let tries = 1; ; tries++) {
      const res = await fetch(url, { headers: { accept: 'application/json' } });
      if (res.status === 200) return res.json();
      const json = await res.json().catch(() => ({}));
      // 429: this visitor's share of heavy jobs is taken (extensions section 10); ask again when told.
      if (res.status !== 202 && res.status !== 429) throw new Error(json.message || `The server answered ${res.status}.`);
      onWait?.(tries, res.status === 429);
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') || 2)));
    }
  }

  return { changesOf, poll };
})();
