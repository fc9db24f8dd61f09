// Messages quoted in ours: one full stop at the end, whether or not the quoted one had its own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withoutFinalStop } from './text.ts';

describe('withoutFinalStop', () => {
  it('drops the quoted message\'s own final full stop and trailing blanks, nothing else', () => {
    assert.equal(`Stopped: ${withoutFinalStop('The server is stopping.')}.`, 'Stopped: The server is stopping.');
    assert.equal(`Stopped: ${withoutFinalStop('out of memory')}.`, 'Stopped: out of memory.');
    assert.equal(withoutFinalStop('version 1.2 failed.  '), 'version 1.2 failed');
    assert.equal(withoutFinalStop('Wait...'), 'Wait');
    assert.equal(withoutFinalStop('Really?'), 'Really?');
    assert.equal(withoutFinalStop(''), '');
  });
});
