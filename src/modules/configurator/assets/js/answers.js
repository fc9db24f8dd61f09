// What a configure answer changes in the states the configurator's page shows (issue 37, item 1).
// The page's first step asks for the compact answer (`states`: one letter per feature in the
// tree's order), later steps for the changes since the state it holds (`changed`); an answer of
// the API's full form (`features`) is compared with what is shown.
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

  return { changesOf };
})();
