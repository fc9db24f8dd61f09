// A FeatureIDE upload over MAX_FEATURES is refused from a count of its bytes, before the reader
// builds its tree (extensions section 10, "Limits said at the door"): that tree took 1.3 GB of
// heap for the noisy-neighbour bench's 10^6 features, only for the model to be refused.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { newUser, stage } from '../dataset.test-support.ts';

const featureIde = (features: number, tail = '') =>
  `<?xml version="1.0"?>\n<featureModel><struct><and name="Root">${Array.from({ length: features - 1 }, (_, i) => `<feature name="F${i}"/>`).join('')}</and></struct>${tail}</featureModel>\n`;

describe('FeatureIDE uploads counted before they are read', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ seed: false, env: { MAX_FEATURES: '1000', LOG_LEVEL: 'error' } });
  });
  after(async () => { await server?.close(); });

  it('refuses a file over MAX_FEATURES as too many features without reading it: a broken part after <struct> is never seen', async () => {
    const { client } = await newUser(server);
    // Not well-formed after the struct: a reader's tree would answer "not well-formed XML".
    const over = await stage(client, 'big.xml', featureIde(1001, '<constraints><rule></constraints>'));
    assert.equal(over.status, 400, over.text.slice(0, 300));
    assert.equal(over.json.message, 'big.xml has 1001 features, more than the 1000 this hub accepts (MAX_FEATURES).');
    const broken = await stage(client, 'edge.xml', featureIde(1000, '<constraints><rule></constraints>'));
    assert.equal(broken.status, 400);
    assert.match(broken.json.message, /not a valid FeatureIDE model: .*not well-formed XML/);
    const atLimit = await stage(client, 'edge.xml', featureIde(1000));
    assert.equal(atLimit.status, 200, atLimit.text.slice(0, 300));
    assert.equal(atLimit.json.format, 'featureide');
  });
});
