// The pure parts of the OAI module, without a database: XML escaping (control characters a
// parser refuses are dropped), the DataCite and Dublin Core builders, date arguments, and
// resumption tokens refused when altered.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { XMLValidator } from 'fast-xml-parser';
import { dataciteDocument, oaiDc, type ItemMetadata } from './oai.metadata.ts';
import { OaiError, parseUtcDate } from './oai.arguments.ts';
import { decodeToken, encodeToken } from './oai.token.ts';
import { parseXml } from './oai.test-support.ts';

const ITEM: ItemMetadata = {
  doi: '10.5555/x', url: 'http://hub/doi/10.5555/x/', title: 'Bell\u0007 & <tab>\u0000 ]]> "q"', description: 'd\u001b',
  creators: [{ name: 'ACME & Co', affiliation: null, orcid: null }, { name: 'Doe, Jane', affiliation: 'U', orcid: '0000-0002-1825-0097' }],
  date: '2024-05-06', resourceTypeGeneral: 'Dataset', resourceType: 'UVL feature models', subjects: ['a<b'],
  license: { id: 'MIT', url: 'https://opensource.org/licenses/MIT' }, version: '2', conceptDoi: '10.5555/concept', publicationDoi: '10.1000/p', derivedFrom: [],
};

describe('OAI XML and arguments', () => {
  it('drops control characters and escapes markup so that the document stays well-formed', () => {
    const xml = dataciteDocument(ITEM);
    assert.equal(XMLValidator.validate(xml), true);
    const resource = parseXml(xml).resource;
    assert.equal(resource.titles.title[0], 'Bell & <tab> ]]> "q"');
    assert.equal(XMLValidator.validate(oaiDc(ITEM)), true);
  });

  it('DataCite: a group name has no nameType, a person is split and keeps the ORCID iD; versions and the publication are related', () => {
    const resource = parseXml(dataciteDocument(ITEM)).resource;
    const [group, person] = resource.creators.creator;
    assert.deepEqual(group.creatorName, 'ACME & Co');
    assert.equal(person.creatorName['@nameType'], 'Personal');
    assert.equal(person.familyName, 'Doe');
    assert.equal(person.nameIdentifier['@nameIdentifierScheme'], 'ORCID');
    assert.deepEqual(resource.relatedIdentifiers.relatedIdentifier.map((r: any) => r['@relationType']), ['IsVersionOf', 'IsSupplementTo']);
    // Without authors the publisher stands in: DataCite requires a creator.
    const anonymous = parseXml(dataciteDocument({ ...ITEM, creators: [] })).resource;
    assert.equal(anonymous.creators.creator[0].creatorName, 'UVL Hub');
  });

  it('the sources of imported models: DataCite IsDerivedFrom (URL or DOI) and dc:source, escaped; none without sources', () => {
    const url = 'https://git.example/a?x=1&y=<2>';
    const item: ItemMetadata = { ...ITEM, derivedFrom: [{ identifier: '10.5281/zenodo.7', scheme: 'doi' }, { identifier: url, scheme: 'url' }] };
    const xml = dataciteDocument(item);
    assert.equal(XMLValidator.validate(xml), true);
    assert.ok(xml.includes('https://git.example/a?x=1&amp;y=&lt;2&gt;'), 'the URL is escaped');
    const related = parseXml(xml).resource.relatedIdentifiers.relatedIdentifier;
    assert.deepEqual(related.filter((r: any) => r['@relationType'] === 'IsDerivedFrom').map((r: any) => [r['@relatedIdentifierType'], r['#text']]), [['DOI', '10.5281/zenodo.7'], ['URL', url]]);
    const dc = oaiDc(item);
    assert.equal(XMLValidator.validate(dc), true);
    assert.deepEqual(parseXml(dc)['oai_dc:dc']['dc:source'], ['https://doi.org/10.5281/zenodo.7', url]);
    // Without sources (nor versions or a publication) neither element is written, not even empty.
    const plain = { ...ITEM, conceptDoi: null, publicationDoi: null };
    assert.doesNotMatch(dataciteDocument(plain), /relatedIdentifier/);
    assert.doesNotMatch(oaiDc(plain), /dc:source/);
  });

  it('reads both granularities and refuses what is not a date', () => {
    assert.deepEqual(parseUtcDate('from', '2024-02-29'), { time: Date.UTC(2024, 1, 29), granularity: 'day' });
    assert.deepEqual(parseUtcDate('from', '0050-01-01T00:00:01Z').granularity, 'seconds');
    for (const bad of ['2023-02-29', '2024-1-01', '2024-01-01T00:00Z', '2024-01-01 00:00:00Z', '2024-01-01T00:00:60Z', '', 'yesterday']) {
      assert.throws(() => parseUtcDate('from', bad), (e: unknown) => e instanceof OaiError && e.code === 'badArgument', bad);
    }
  });

  it('a token comes back as written; an altered one is badResumptionToken', () => {
    const position = { args: { metadataPrefix: 'oai_dc', from: '2024-01-01' }, last: { set: 'datasets', datestamp: '2024-01-02T00:00:00.000Z', id: 7 }, cursor: 100 };
    const token = encodeToken(position);
    assert.deepEqual(decodeToken(token), position);
    const refused = (e: unknown) => e instanceof OaiError && e.code === 'badResumptionToken';
    for (const bad of [token.slice(0, -2), `${token}!`, Buffer.from('{"a":1}').toString('base64url'), Buffer.from('[2,"oai_dc","","","","datasets","x",1,0]').toString('base64url'), Buffer.from('[1,"oai_dc","","","","datasets","x",1.5,0]').toString('base64url'), 'x'.repeat(2000)]) {
      assert.throws(() => decodeToken(bad), refused, bad.slice(0, 40));
    }
  });
});
