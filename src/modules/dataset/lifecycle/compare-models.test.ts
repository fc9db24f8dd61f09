// The comparison page's reading of model texts is remembered by content (issue 25 item 8).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompareModels } from './compare-models.ts';

describe('compare models', () => {
  it('reads a text once and answers the same reading again; another text gets its own', () => {
    const models = new CompareModels();
    const text = 'features\n    Car\n        optional\n            Radio\n\nconstraints\n    Radio => Car\n';
    const first = models.read('car.uvl', text);
    assert.deepEqual([...first!.features].sort(), ['Car', 'Radio']);
    assert.equal(first!.constraints.size, 1);
    assert.equal(models.read('car.uvl', text), first);
    assert.notEqual(models.read('car.uvl', text.replace('Radio =>', '!Radio |')), first);
  });

  it('answers null for a text with syntax errors', () => {
    assert.equal(new CompareModels().read('bad.uvl', 'features\n    A {\n'), null);
  });
});
