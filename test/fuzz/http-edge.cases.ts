// Bad requests for the HTTP edge fuzz test: broken multipart bodies, broken encodings (invalid
// UTF-8, overlong and truncated percent-escapes, NULs), huge headers and fields, invalid JSON and
// wrong content types. Each generator draws from the seeded random source it is given, so a
// run is the same every time.

export type Random = () => number;

export interface BadBody {
  kind: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Field names the hub's forms and API read, so a bad value reaches the handlers' own checks. */
const FIELDS = [
  'title', 'desc', 'description', 'name', 'surname', 'email', 'password', 'new_password', 'current_password', 'tags',
  'publication_type', 'publication_doi', 'query', 'sorting', 'limit', 'page', 'filename', 'scopes', 'expires_in_days',
  'authors-0-name', 'authors-0-orcid', 'feature_models-0-uvl_filename', 'feature_models-0-title', 'license', 'csrf_token',
  'authors', 'files', 'features_min', 'features', 'satisfiable', 'token', 'orcid', 'affiliation', '__proto__', 'constructor',
] as const;

/** Values that break decoders and validators. */
const BAD_TEXT: readonly Buffer[] = [
  Buffer.from([0xff, 0xfe, 0xfd]), // never valid UTF-8
  Buffer.from([0xc0, 0xaf]), // overlong '/'
  Buffer.from([0xe0, 0x80, 0xaf]), // overlong, three bytes
  Buffer.from([0xed, 0xa0, 0x80]), // a UTF-16 surrogate in UTF-8
  Buffer.from([0xf4, 0x90, 0x80, 0x80]), // past U+10FFFF
  Buffer.from('a\u0000b'), Buffer.from('\u0000'), Buffer.from('../../etc/passwd'), Buffer.from('..\\..\\x.uvl'),
  Buffer.from('%C0%AF%E0%80%AF%'), Buffer.from('%E2%82'), Buffer.from('%%%41%zz'), Buffer.from('%00'), Buffer.from('%u0000'),
  Buffer.from('<script>alert(1)</script>'), Buffer.from('\u202e\ufeff\u200b'), Buffer.from('𝔘𝔙𝔏 josé'), Buffer.from(''),
  Buffer.from('-1'), Buffer.from('1e309'), Buffer.from('99999999999999999999999'), Buffer.from('NaN'), Buffer.from('0x10'),
  Buffer.from('features\n    A {\n'), Buffer.from("' OR 1=1 --"), Buffer.from('10.1234/../../x'),
];

function badValue(random: Random): Buffer {
  const r = random();
  if (r < 0.08) return Buffer.alloc(2000 + Math.floor(random() * 300_000), 'a'); // long field
  if (r < 0.16) return Buffer.from(Array.from({ length: 64 }, () => Math.floor(random() * 256))); // random bytes
  return pick(random, BAD_TEXT);
}

/** A urlencoded body, its escapes sometimes left raw, truncated or overlong. */
function urlencoded(random: Random): BadBody {
  const parts: Buffer[] = [];
  const count = 1 + Math.floor(random() * (random() < 0.1 ? 400 : 6));
  for (let i = 0; i < count; i++) {
    const name = random() < 0.1 ? `${pick(random, FIELDS)}[${pick(random, ['__proto__', 'x', ''])}]` : pick(random, FIELDS);
    const value = badValue(random);
    const escaped = random() < 0.5 ? Buffer.from(encodeURIComponent(value.toString('latin1'))) : value;
    parts.push(Buffer.concat([Buffer.from(`${i ? '&' : ''}${name}=`), escaped]));
  }
  const type = pick(random, ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'application/x-www-form-urlencoded; charset=koi8-r']);
  return { kind: 'urlencoded', headers: { 'content-type': type }, body: Buffer.concat(parts) };
}

/** A multipart body with one of its usual faults. */
function multipart(random: Random): BadBody {
  const boundary = `----fuzz${Math.floor(random() * 1e9)}`;
  const field = (name: string, value: Buffer, filename?: Buffer) => Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"`),
    filename ? Buffer.concat([Buffer.from('; filename="'), filename, Buffer.from('"')]) : Buffer.alloc(0),
    Buffer.from(`\r\nContent-Type: ${filename ? 'text/plain' : 'text/plain; charset=utf-8'}\r\n\r\n`), value, Buffer.from('\r\n'),
  ]);
  const end = Buffer.from(`--${boundary}--\r\n`);
  const fault = pick(random, ['unterminated', 'no-boundary', 'wrong-boundary', 'bad-part-headers', 'bad-filename', 'many-fields', 'two-files', 'huge-part', 'bad-content', 'empty']);
  const file = () => field('file', badValue(random), pick(random, [Buffer.from('model.uvl'), ...BAD_TEXT.slice(0, 12)]));
  let body: Buffer;
  let type = `multipart/form-data; boundary=${boundary}`;
  switch (fault) {
    case 'unterminated': body = Buffer.concat([field(pick(random, FIELDS), badValue(random)), Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.uvl"\r\n\r\nfeatures\n    A`)]); break;
    case 'no-boundary': type = 'multipart/form-data'; body = Buffer.concat([file(), end]); break;
    case 'wrong-boundary': type = 'multipart/form-data; boundary=other'; body = Buffer.concat([file(), end]); break;
    case 'bad-part-headers': body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=\r\nX: ${'y'.repeat(Math.floor(random() * 90_000))}\r\n\r\nvalue\r\n`), end]); break;
    case 'bad-filename': body = Buffer.concat([file(), end]); break;
    case 'many-fields': body = Buffer.concat([...Array.from({ length: 60 + Math.floor(random() * 200) }, () => field(pick(random, FIELDS), badValue(random))), end]); break;
    case 'two-files': body = Buffer.concat([file(), file(), file(), end]); break;
    case 'huge-part': body = Buffer.concat([field('file', Buffer.alloc(2_500_000 + Math.floor(random() * 1_000_000), 'x'), Buffer.from('big.uvl')), end]); break;
    case 'bad-content': body = Buffer.concat([field(pick(random, FIELDS), badValue(random)), file(), end]); break;
    default: body = end;
  }
  return { kind: `multipart ${fault}`, headers: { 'content-type': type }, body };
}

/** A JSON body that is not JSON, or JSON of the wrong shape. */
function json(random: Random): BadBody {
  const value = () => pick(random, [
    null, true, -1, 0, 1e308, 2 ** 63, 'x'.repeat(Math.floor(random() * 50_000)), '\u0000', '\ud800', [], {}, [[[]]], { $gt: '' },
    'features\n    A', '../x', ['a', 1, null], { name: { name: {} } },
  ] as unknown[]);
  const shape = Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 6) }, () => [pick(random, FIELDS), value()]));
  const fault = pick(random, ['truncated', 'trailing', 'deep', 'proto', 'shape', 'lone-surrogate', 'invalid-utf8', 'bignum', 'nul', 'empty', 'scalar']);
  const texts: Record<string, () => Buffer> = {
    truncated: () => Buffer.from(JSON.stringify(shape).slice(0, -1 - Math.floor(random() * 5))),
    trailing: () => Buffer.from('{"name": "x",}'),
    deep: () => Buffer.from(`${'['.repeat(50_000 + Math.floor(random() * 50_000))}`),
    proto: () => Buffer.from('{"__proto__": {"admin": true, "user": {"id": 1}}, "constructor": {"prototype": {"polluted": 1}}, "name": "p"}'),
    shape: () => Buffer.from(JSON.stringify(shape)),
    'lone-surrogate': () => Buffer.from('{"name": "\\ud800", "description": "\\udfff", "query": "\\ud83d"}'),
    'invalid-utf8': () => Buffer.concat([Buffer.from('{"name": "'), badValue(random), Buffer.from('", "query": "x"}')]),
    bignum: () => Buffer.from('{"limit": 1e999, "page": 123456789012345678901234567890, "per_page": -0, "features_min": 1e-400}'),
    nul: () => Buffer.from('{"name": "a\\u0000b", "\\u0000": 1}'),
    empty: () => Buffer.alloc(0),
    scalar: () => Buffer.from(pick(random, ['null', '1', '"x"', '[]', 'true'])),
  };
  const type = pick(random, ['application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/vnd.api+json']);
  return { kind: `json ${fault}`, headers: { 'content-type': type }, body: texts[fault]!() };
}

/** A body under a content type that does not describe it, or none. */
function wrongType(random: Random): BadBody {
  const type = pick(random, [
    'text/plain', 'application/xml', 'application/octet-stream', 'image/png', 'application/json;;;;', 'multipart/mixed; boundary=x',
    'text/html; charset=bogus', 'application/x-www-form-urlencoded; charset=utf-16', '*/*', 'application/', 'x',
  ]);
  const body = random() < 0.5 ? Buffer.from('{"name": "x", "title": "t"}') : Buffer.concat([Buffer.from('title=t&desc='), badValue(random)]);
  return random() < 0.2 ? { kind: 'no content type', headers: {}, body } : { kind: `wrong type ${type}`, headers: { 'content-type': type }, body };
}

/** Headers past the server's limits or odd: very long, very many, strange cookies. */
function hugeHeaders(random: Random): BadBody {
  const size = pick(random, [8_000, 15_000, 20_000, 70_000]);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const fault = pick(random, ['long', 'many', 'cookie', 'csrf']);
  if (fault === 'long') headers['x-fuzz'] = 'a'.repeat(size);
  else if (fault === 'many') for (let i = 0; i < size / 100; i++) headers[`x-fuzz-${i}`] = 'b'.repeat(80);
  else if (fault === 'cookie') headers.cookie = `session=${'%'.repeat(size / 10)}; view_cookie=%E2%82; a=${'c'.repeat(size)}`;
  else headers['x-csrftoken'] = pick(random, ['%00', 'a'.repeat(size), '\u00ff\u00fe', '..']);
  return { kind: `headers ${fault}`, headers, body: Buffer.from('title=x') };
}

const GENERATORS = [urlencoded, multipart, multipart, json, json, wrongType, hugeHeaders];

export function badBody(random: Random): BadBody {
  return pick(random, GENERATORS)(random);
}

export { pick };
