// The diagram's view geometry (diagram.js): fitting the drawing to its frame and keeping an
// expansion in view, as functions of the view ({x, y, k}: a drawing point p shows at
// (p - origin) * k), the frame's size ({w, h}, CSS px) and boxes in drawing units ({x, y, width,
// height}, as getBBox gives them). Kept apart so that diagram.js stays about events and requests.
(function () {
  'use strict';

  /**
   * Fitting never shrinks a label below 10 px (12 units at 10/12; issue 37): a drawing larger than
   * that shows its root's part, and the server folds the tree to the frame it is told (fit=WxH).
   */
  const FLOOR_SCALE = 10 / 12;

  /** The view fitting a drawing of view.width x view.height; `root` (its box's corner) is shown when it cannot fit readably. */
  function fitted(view, frame, root) {
    const { w, h } = frame;
    // Never larger than life: a small model sits at its own size, centred.
    const fit = Math.min(1, w / view.width, h / view.height);
    const k = Math.max(FLOOR_SCALE, fit);
    if (fit >= FLOOR_SCALE) return { k, x: (view.width - w / k) / 2, y: (view.height - h / k) / 2 };
    // Too large to read whole: the legend's corner and the root, at the floor.
    return { k, x: 0, y: root ? Math.max(0, Math.min(view.height - h / k, root.y - h / k / 2)) : 0 };
  }

  /** Whether a box is wholly in the view. */
  const inside = (view, frame, b) => b.x >= view.x && b.y >= view.y && b.x + b.width <= view.x + frame.w / view.k && b.y + b.height <= view.y + frame.h / view.k;

  /** The smallest box around these boxes, as corners. */
  function union(boxes) {
    let u = null;
    for (const b of boxes) {
      if (!u) u = { x1: b.x, y1: b.y, x2: b.x + b.width, y2: b.y + b.height };
      else u = { x1: Math.min(u.x1, b.x), y1: Math.min(u.y1, b.y), x2: Math.max(u.x2, b.x + b.width), y2: Math.max(u.y2, b.y + b.height) };
    }
    return u;
  }

  /**
   * After an expansion: the opened box and what it newly shows inside the frame (issue 37: a
   * subtree opened above the visible frame). Zooms out to hold both, not below the label floor.
   * Down: both, else the new boxes, else their top (a subtree is centred on its opened box).
   * Across: both, else (`keepOpened`, a box opened rather than its "+n more") the opened box and
   * the column of the first new box (so that it can be closed again), else the start (the first new box's or the new boxes' left edge) that shows the
   * most new boxes: a "+n more" box's new children continue a grid a few columns off.
   */
  function keptInView(view, frame, opened, boxes, keepOpened) {
    const news = union(boxes);
    const all = union(opened ? [opened, ...boxes] : boxes);
    if (!news || !all) return view;
    const { w, h } = frame;
    const k = Math.max(FLOOR_SCALE, Math.min(view.k, w / (all.x2 - all.x1 + 24), h / (all.y2 - all.y1 + 24)));
    const seen = { w: w / k, h: h / k };
    const m = 12 / k;
    const fits = (from, to, length) => to - from + 2 * m <= length;
    /** Moved as little as possible to show [from, to]. */
    const reach = (start, length, from, to) => (from - m < start ? from - m : to + m > start + length ? to + m - length : start);
    let y;
    if (fits(all.y1, all.y2, seen.h)) y = reach(view.y, seen.h, all.y1, all.y2);
    else if (fits(news.y1, news.y2, seen.h)) y = reach(view.y, seen.h, news.y1, news.y2);
    else y = news.y1 - m;
    if (fits(all.x1, all.x2, seen.w)) return { k, y, x: reach(view.x, seen.w, all.x1, all.x2) };
    // The opened box with the column its first new box starts (it can be closed again from there).
    const column = union(boxes.filter((b) => Math.abs(b.x - boxes[0].x) < 1));
    if (opened && keepOpened && fits(opened.x, column.x2, seen.w)) return { k, y, x: opened.x - m };
    const shown = (x) => boxes.filter((b) => b.x >= x && b.x + b.width <= x + seen.w && b.y >= y && b.y + b.height <= y + seen.h).length;
    const starts = [boxes[0].x, news.x1].map((x) => x - m);
    return { k, y, x: starts.reduce((best, x) => (shown(x) > shown(best) ? x : best)) };
  }

  window.hubDiagramView = { FLOOR_SCALE, fitted, inside, keptInView };
})();
