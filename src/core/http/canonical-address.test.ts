// The redirects to an address's canonical form keep the query asked with it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withFinalSlash, withQueryOf } from './canonical-address.ts';

describe('canonical addresses', () => {
  it('puts the query of the address asked for after the canonical path', () => {
    assert.equal(withQueryOf('/doi/10.1234/x?utm=a&b=%C3%A9', '/doi/10.1234/x/'), '/doi/10.1234/x/?utm=a&b=%C3%A9');
    assert.equal(withQueryOf('/model/7', '/model/7/'), '/model/7/');
    assert.equal(withQueryOf('/signup?', '/signup/'), '/signup/?');
  });

  it('adds the final slash before the query', () => {
    assert.equal(withFinalSlash('/collection/7'), '/collection/7/');
    assert.equal(withFinalSlash('/review/abc?x=1&y=/z'), '/review/abc/?x=1&y=/z');
  });
});
