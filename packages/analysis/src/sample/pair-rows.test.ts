// The chunked coverage table past 2^31 bits (automotive2_4's pairs need 1.1 billion bits per
// table after compaction, 1.4 billion before): rows are located in their chunk by arithmetic,
// and a chunk is allocated only when written, so a table of 2.5 billion bits is exercised here
// with three chunks of 4 MB allocated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_WORDS, PairRows } from './pair-rows.ts';

test('a table beyond 2^31 bits: bits at both ends, in their own chunks, nothing else allocated', () => {
  const L = 50_000;
  // Chunks of 2^20 words (4 MB) instead of the default 2^26, so that the test allocates little.
  const table = new PairRows(L, 2 ** 20);
  assert.ok(table.bits > 2 ** 31, `${table.bits} bits`);
  assert.equal(table.W, 1563);
  assert.equal(table.rowsPerChunk, 670);
  assert.equal(new PairRows(L).rowsPerChunk, Math.floor(CHUNK_WORDS / 1563));
  assert.equal(table.allocatedChunks, 0);
  const marks: [number, number][] = [[0, 0], [0, L - 1], [L - 1, 0], [L - 1, L - 1], [table.rowsPerChunk - 1, 31], [table.rowsPerChunk, 32]];
  for (const [r, b] of marks) table.set(r, b);
  // Rows 0..rowsPerChunk-1 are chunk 0; rowsPerChunk is the first row of chunk 1; L-1 is in the last chunk.
  assert.deepEqual(table.locate(table.rowsPerChunk), { chunk: 1, offset: 0 });
  assert.deepEqual(table.locate(L - 1), { chunk: Math.floor((L - 1) / table.rowsPerChunk), offset: ((L - 1) % table.rowsPerChunk) * 1563 });
  assert.equal(table.allocatedChunks, 3);
  for (const [r, b] of marks) assert.ok(table.has(r, b), `bit ${r}, ${b}`);
  // Neighbours stay clear: rows and bits next to the marked ones, across the chunk boundary too.
  for (const [r, b] of [[1, 0], [0, 1], [L - 2, L - 1], [L - 1, L - 2], [table.rowsPerChunk, 31], [table.rowsPerChunk - 1, 32], [table.rowsPerChunk + 1, 32]]) {
    assert.equal(table.has(r!, b!), false, `bit ${r}, ${b}`);
  }
  // A row of a chunk never written reads as zeros and allocates nothing.
  assert.equal(table.readRow(2 * table.rowsPerChunk + 5).every((w) => w === 0), true);
  assert.equal(table.allocatedChunks, 3);
});

test('small chunks: every bit of a table lands where it is read back', () => {
  const L = 100;
  const table = new PairRows(L, 16); // 4 words per row: 4 rows per chunk
  assert.equal(table.rowsPerChunk, 4);
  const truth = new Set<number>();
  let s = 12345;
  for (let i = 0; i < 2000; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const r = s % L;
    const b = (s >>> 8) % L;
    table.set(r, b);
    truth.add(r * L + b);
  }
  for (let r = 0; r < L; r++) for (let b = 0; b < L; b++) assert.equal(table.has(r, b), truth.has(r * L + b), `bit ${r}, ${b}`);
});
