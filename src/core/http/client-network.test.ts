// Addresses counted per network (client-network.ts): an IPv6 host's whole /64 is one client.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clientNetwork } from './client-network.ts';
import { requesterOf } from '../scheduler/index.ts';

describe('clientNetwork', () => {
  it('keeps an IPv4 address, also when written IPv4-mapped', () => {
    assert.equal(clientNetwork('192.0.2.1'), '192.0.2.1');
    assert.equal(clientNetwork('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(clientNetwork('::FFFF:c000:0201'), '192.0.2.1');
  });

  it('gives one /64 for every IPv6 address in it, however it is written', () => {
    const net = '2001:db8:0:1::/64';
    for (const address of ['2001:db8:0:1::1', '2001:db8::1:0:0:0:2', '2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:DB8:0:1:a:b:c:d', '2001:db8:0:1::1%eth0', '2001:db8:0:1::192.0.2.7']) {
      assert.equal(clientNetwork(address), net, address);
    }
    assert.equal(clientNetwork('2001:db8:0:2::1'), '2001:db8:0:2::/64', 'the next /64 is another client');
    assert.equal(clientNetwork('::1'), '0:0:0:0::/64');
    assert.equal(clientNetwork('fe80::1'), 'fe80:0:0:0::/64');
  });

  it('leaves anything that is not an address as it is', () => {
    for (const text of ['', 'unknown', '1:2:3', '1::2::3', '2001:db8:0:1:2:3:4:5:6']) assert.equal(clientNetwork(text), text);
  });

  it('makes the fair queues count a /64 as one requester', () => {
    assert.equal(requesterOf({ ip: '2001:db8:0:1::1' }), requesterOf({ ip: '2001:db8:0:1:dead:beef:0:2' }));
    assert.notEqual(requesterOf({ ip: '2001:db8:0:1::1' }), requesterOf({ ip: '2001:db8:0:2::1' }));
    assert.equal(requesterOf({ ip: '::ffff:192.0.2.1' }), requesterOf({ ip: '192.0.2.1' }));
    assert.equal(requesterOf({ ip: '2001:db8:0:1::1', user: { id: 3 } }), 'account:3');
  });
});
