// Reusable pages: slots cut at the process's markers and filled escaped, indentation dropped
// only where it is not content, a bounded cache.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cutAtMarkers, ReusablePageCache, slotMarker, withoutIndentation } from './reusable-page.ts';

describe('reusable pages', () => {
  it('fills every slot with its value, HTML-escaped, and refuses a missing one', () => {
    const page = cutAtMarkers(`<meta content="${slotMarker('csrf_token')}"><b>${slotMarker('views')}</b> views, ${slotMarker('views')} again`);
    assert.equal(page.fill({ csrf_token: 'a<b"c', views: 12 }).toString('utf8'), '<meta content="a&lt;b&quot;c"><b>12</b> views, 12 again');
    assert.throws(() => page.fill({ views: 1 }), /csrf_token/);
  });

  it('sends the same bytes again for the same values, and new ones as soon as a value changes', () => {
    const page = cutAtMarkers(`<meta content="${slotMarker('csrf_token')}"><b>${slotMarker('views')}</b>`);
    const first = page.fill({ csrf_token: 'one', views: 1 });
    // Asked again with the same values, the page is kept in a buffer of its own and sent from then on.
    const kept = page.fill({ csrf_token: 'one', views: '1' });
    assert.deepEqual(kept, first);
    assert.equal(page.fill({ csrf_token: 'one', views: 1 }), kept, 'the answer already made');
    assert.equal(page.fill({ csrf_token: 'one', views: 2 }).toString('utf8'), '<meta content="one"><b>2</b>');
    assert.equal(page.fill({ csrf_token: 'two', views: 2 }).toString('utf8'), '<meta content="two"><b>2</b>');
    assert.equal(page.fill({ csrf_token: 'one', views: 1 }).toString('utf8'), first.toString('utf8'));
    assert.equal(first.toString('utf8'), '<meta content="one"><b>1</b>', 'an answer made is never changed');
  });

  it('does not take text that looks like a marker without the process nonce for one', () => {
    const page = cutAtMarkers('<p>\u0002abc:views\u0003</p>');
    assert.equal(page.fill({}).toString('utf8'), '<p>\u0002abc:views\u0003</p>');
  });

  it('drops indentation but keeps it in pre, textarea, script and style, and never joins words', () => {
    const html = '<div>\n    <p>one\n      two</p>\n  <pre>\n\tkept = {\n\t  x }\n</pre>\n  <textarea>\n  kept</textarea>\n  <script type="application/ld+json">\n  {"a": 1}</script>\n</div>';
    assert.equal(withoutIndentation(html), '<div>\n<p>one\ntwo</p>\n<pre>\n\tkept = {\n\t  x }\n</pre>\n<textarea>\n  kept</textarea>\n<script type="application/ld+json">\n  {"a": 1}</script>\n</div>');
  });

  it('keeps at most its limit of pages: a page in use stays, one unused for longest leaves', () => {
    const cache = new ReusablePageCache(4);
    const page = cutAtMarkers('x');
    cache.set('a', page);
    cache.set('b', page);
    cache.get('a');
    cache.set('c', page);
    assert.equal(cache.get('b'), undefined);
    assert.ok(cache.get('a'));
    assert.ok(cache.get('c'));
    for (const key of ['d', 'e', 'f', 'g', 'h']) cache.set(key, page);
    const kept = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].filter((key) => cache.get(key) !== undefined);
    assert.ok(kept.length <= 4, kept.join());
    assert.ok(kept.includes('h'), 'the newest page is kept');
  });
});
