// Every citation format built from one record and read back by a parser of that format
// (citation-js for BibTeX, RIS and CSL-JSON, `yaml` for CITATION.cff, JSON for DataCite and
// JSON-LD), with names and titles that break naive writers: accents, braces, &, %, quotes and
// </script>. Pure: no database, no server.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Cite } from '@citation-js/core';
import { parse as parseYaml } from 'yaml';
import {
  CITATION_FORMATS, dataciteObject, formatInfo, jsonLdForHtml, jsonLdObject, toApaText, toBibtex, toCff, toCsl, toDatacite, toJsonLd, toRis,
} from './citation.formats.ts';
import { splitName, type CitationRecord } from './citation.record.ts';
import { exportPathOf, negotiateFormat } from './citation.http.ts';
import { MAX_ITEM_LINKS, signpostingLinks } from './citation.signposting.ts';

const TITLE = 'Modèles {curly} & 100% "quoted" </script><b>x</b>';

function record(overrides: Partial<CitationRecord> = {}): CitationRecord {
  return {
    doi: '10.1234/cite.1',
    url: 'http://hub.example/doi/10.1234/cite.1',
    title: TITLE,
    description: 'Described </script> & "quoted" {braces}',
    authors: [
      { name: 'Müller-Åström, José {Jr}', affiliation: 'Universidad de Sevilla & "Lab" 100%', orcid: '0000-0002-1825-0097' },
      { name: 'ACME & Co {x} 50%', affiliation: null, orcid: null },
      { name: "O'Brien, Siobhán", affiliation: null, orcid: null },
    ],
    tags: ['variability', 'product lines'],
    publicationType: 'article',
    publicationTypeLabel: 'Journal Article',
    publicationDoi: '10.1000/paper.7',
    year: 2024,
    date: '2024-03-05',
    files: [{ name: 'car.uvl', url: 'http://hub.example/file/download/7', size: 1234 }],
    zipUrl: 'http://hub.example/dataset/download/3',
    ...overrides,
  };
}

/** Names as CSL gives them, "Family, Given" or the literal. */
const cslNames = (item: any) => (item.author ?? []).map((a: any) => (a.given ? `${a.family}, ${a.given}` : a.literal ?? a.family));

describe('citation formats', () => {
  it('splits "Family, Given" and keeps a name without comma whole', () => {
    assert.deepEqual(splitName('Doe, John'), { family: 'Doe', given: 'John' });
    assert.deepEqual(splitName('  Müller ,  José  '), { family: 'Müller', given: 'José' });
    assert.deepEqual(splitName('ACME & Co'), { literal: 'ACME & Co' });
    assert.deepEqual(splitName(', Nobody'), { literal: ', Nobody' });
  });

  it('BibTeX: a parser reads back DOI, title, every author and the year, TeX specials escaped', () => {
    const text = toBibtex(record());
    assert.match(text, /^@misc\{/);
    assert.ok(text.includes('\\&') && text.includes('\\%'), 'ampersand and percent escaped');
    assert.doesNotMatch(text, /<\/script>/i, 'markup characters are written as TeX commands');
    // Braces balance, or a BibTeX reader loses the rest of the file.
    let depth = 0;
    for (const c of text.replace(/\\[{}]/g, '')) {
      depth += c === '{' ? 1 : c === '}' ? -1 : 0;
      assert.ok(depth >= 0);
    }
    assert.equal(depth, 0);
    const [item] = new Cite(text).data;
    assert.equal(item!.DOI, '10.1234/cite.1');
    assert.equal(item!.title, TITLE);
    assert.deepEqual(cslNames(item), ['Müller-Åström, José {Jr}', 'ACME & Co {x} 50%', "O'Brien, Siobhán"]);
    assert.equal(item!.issued['date-parts'][0][0], 2024);
  });

  it('RIS: a dataset record read back with DOI, title, authors, year and keywords', () => {
    const text = toRis(record());
    assert.match(text, /^TY {2}- DATA/m);
    assert.match(text, /^KW {2}- product lines$/m);
    const [item] = new Cite(text).data;
    assert.equal(item!.DOI, '10.1234/cite.1');
    assert.equal(item!.title, TITLE);
    assert.deepEqual(cslNames(item), ['Müller-Åström, José {Jr}', 'ACME & Co {x} 50%', "O'Brien, Siobhán"]);
    assert.equal(item!.issued['date-parts'][0][0], 2024);
  });

  it('BibTeX keeps every character: a non-Latin title and authors read back exactly (UTF-8, as biber and bibtexu read it)', () => {
    const title = 'Ünïcödé models — 数据 « test » Ελληνικά';
    const authors = [
      { name: '王, 小明', affiliation: null, orcid: null },
      { name: 'Ильин, Пётр', affiliation: null, orcid: null },
      { name: 'محمد علي', affiliation: null, orcid: null },
    ];
    const text = toBibtex(record({ title, authors }));
    assert.ok(text.includes('数据') && text.includes('王') && text.includes('Ильин'), text);
    const [item] = new Cite(text).data;
    assert.equal(item!.title, title);
    assert.deepEqual(cslNames(item), ['王, 小明', 'Ильин, Пётр', 'محمد علي']);
  });

  it('BibTeX: each version has its own key and a version field; the key is ASCII', () => {
    const first = toBibtex(record({ title: 'Automotive models', authors: [{ name: 'Researcher, Ann', affiliation: null, orcid: null }] }));
    const second = toBibtex(record({ title: 'Automotive models', authors: [{ name: 'Researcher, Ann', affiliation: null, orcid: null }], version: '2' }));
    const keyOf = (t: string) => /^@misc\{([^,]*),/.exec(t)?.[1];
    assert.equal(keyOf(first), 'Researcher2024Automotive');
    assert.equal(keyOf(second), 'Researcher2024AutomotiveV2');
    assert.doesNotMatch(first, /version/);
    assert.equal(new Cite(second).data[0]!.version, '2');
    assert.match(keyOf(toBibtex(record({ title: 'Ünïcödé', authors: [{ name: 'Øster, Åse', affiliation: null, orcid: null }] })))!, /^[A-Za-z0-9]+$/);
  });

  it('RIS: every line starts with a tag (no value is folded inside a word), non-Latin text read back exactly', () => {
    const description = `A long abstract about BusyBox ${'and more words '.repeat(12)}BusyBox\nsecond line`;
    const title = 'Ünïcödé models — 数据 « test »';
    const text = toRis(record({ description, title, authors: [{ name: '王, 小明', affiliation: null, orcid: null }] }));
    for (const line of text.trimEnd().split('\n')) assert.match(line, /^[A-Z][A-Z0-9] {2}-( |$)/, `a line without a tag: ${line}`);
    assert.match(text, /^AB {2}- A long abstract about BusyBox .* BusyBox second line$/m);
    const [item] = new Cite(text).data;
    assert.equal(item!.title, title);
    assert.deepEqual(cslNames(item), ['王, 小明']);
  });

  it('BibTeX case protection keeps words whole: a capitalised word with a non-ASCII letter is braced as one word, never split', () => {
    const title = 'Zoë and Ärzte meet ÅB, UVL models of über-Zoë (Ωmega) naïve';
    const text = toBibtex(record({ title }));
    const titleOf = (bib: string) => /^\ttitle = \{(.*)\},$/m.exec(bib)?.[1];
    // BibTeX keeps a title's first letter: the first word is braced only for a later capital.
    assert.equal(titleOf(text), 'Zoë and {Ärzte} meet {ÅB}, {UVL} models of über-{Zoë} ({Ωmega}) naïve');
    assert.equal(titleOf(toBibtex(record({ title: 'ÜML for Éva' }))), '{ÜML} for {Éva}');
    assert.doesNotMatch(text, /\{Zo\}ë|Å\{B\}|\{rzte\}/);
    assert.equal(new Cite(text).data[0]!.title, title);
    // TeX specials next to words are still escaped, and the words around them protected.
    assert.equal(titleOf(toBibtex(record({ title: 'R&D_Lab {x}' }))), 'R\\&{D}\\_{Lab} \\textbraceleft{}x\\textbraceright{}');
  });

  it('RIS: the date is zero-padded YYYY/MM/DD/ (2026/12/04/, not 2026/12/4/)', () => {
    assert.match(toRis(record({ date: '2026-12-04', year: 2026 })), /^DA {2}- 2026\/12\/04\/$/m);
    assert.match(toRis(record({ date: '2025-01-09', year: 2025 })), /^DA {2}- 2025\/01\/09\/$/m);
    assert.equal(new Cite(toRis(record({ date: '2026-12-04', year: 2026 }))).data[0]!.issued['date-parts'][0].join('-'), '2026-12-4');
  });

  it('CSL-JSON: a list of one dataset item that citation-js reads back', () => {
    const parsed = JSON.parse(toCsl(record()));
    assert.ok(Array.isArray(parsed) && parsed.length === 1);
    assert.equal(parsed[0].type, 'dataset');
    const [item] = new Cite(parsed).data;
    assert.equal(item!.DOI, '10.1234/cite.1');
    assert.equal(item!.title, TITLE);
    assert.deepEqual(cslNames(item), ['Müller-Åström, José {Jr}', 'ACME & Co {x} 50%', "O'Brien, Siobhán"]);
    assert.deepEqual(item!.issued['date-parts'], [[2024, 3, 5]]);
    assert.equal(item!.version, undefined, 'no version when the record has none');
    assert.equal(JSON.parse(toCsl(record({ version: '2' })))[0].version, '2');
  });

  it('BibTeX, RIS and CSL-JSON carry the licence, CC-BY-4.0 by default (extensions section 2: in every export)', () => {
    assert.match(toBibtex(record()), /^\tlicense = \{CC-BY-4\.0\},$/m);
    const versioned = toBibtex(record({ license: 'MIT', version: '2' }));
    assert.match(versioned, /^\tlicense = \{MIT\},$/m);
    assert.equal(new Cite(versioned).data[0]!.version, '2', 'the entry still parses, version kept');
    assert.match(toRis(record()), /^N1 {2}- License: CC-BY-4\.0 \(https:\/\/creativecommons\.org\/licenses\/by\/4\.0\/legalcode\)$/m);
    assert.match(toRis(record({ license: 'Apache-2.0' })), /^N1 {2}- License: Apache-2\.0 /m);
    assert.equal(JSON.parse(toCsl(record()))[0].license, 'CC-BY-4.0');
    assert.equal(JSON.parse(toCsl(record({ license: 'GPL-3.0-only' })))[0].license, 'GPL-3.0-only');
  });

  it('CITATION.cff 1.2.0: type dataset, split names, ORCID as a URL, licence defaulting to CC-BY-4.0, no version unless given', () => {
    const cff = parseYaml(toCff(record()));
    assert.equal(cff['cff-version'], '1.2.0');
    assert.equal(cff.type, 'dataset');
    assert.equal(cff.title, TITLE);
    assert.deepEqual(cff.authors, [
      { 'family-names': 'Müller-Åström', 'given-names': 'José {Jr}', affiliation: 'Universidad de Sevilla & "Lab" 100%', orcid: 'https://orcid.org/0000-0002-1825-0097' },
      { name: 'ACME & Co {x} 50%' },
      { 'family-names': "O'Brien", 'given-names': 'Siobhán' },
    ]);
    assert.equal(cff.doi, '10.1234/cite.1');
    assert.equal(String(cff['date-released']), '2024-03-05');
    assert.equal(cff.license, 'CC-BY-4.0');
    assert.equal(cff.url, 'http://hub.example/doi/10.1234/cite.1');
    assert.deepEqual(cff.keywords, ['variability', 'product lines']);
    assert.equal(cff.message.length > 0, true);
    assert.equal('version' in cff, false);
    const versioned = parseYaml(toCff(record({ version: '3', license: 'MIT', conceptDoi: '10.1234/cite' })));
    assert.equal(versioned.version, '3');
    assert.equal(versioned.license, 'MIT');
    assert.ok(versioned.identifiers.some((i: any) => i.value === '10.1234/cite'));
    assert.deepEqual(parseYaml(toCff(record({ authors: [] }))).authors, [{ name: 'Anonymous' }], 'CFF needs one author');
  });

  it('CITATION.cff: words that YAML 1.1 reads as booleans, dates or numbers stay text for YAML 1.1 readers too (GitHub, PyYAML)', () => {
    const tricky = record({
      title: 'yes', description: 'On', tags: ['no', '2024-01-01', '1_000', '12:30'],
      authors: [{ name: 'Off, Y', affiliation: 'n', orcid: null }],
    });
    for (const version of ['1.1', '1.2'] as const) {
      const cff = parseYaml(toCff(tricky), { version });
      assert.equal(cff.title, 'yes', version);
      assert.equal(cff.abstract, 'On', version);
      assert.deepEqual(cff.keywords, ['no', '2024-01-01', '1_000', '12:30'], version);
      assert.deepEqual(cff.authors, [{ 'family-names': 'Off', 'given-names': 'Y', affiliation: 'n' }], version);
      assert.equal(cff['date-released'], '2024-03-05', `${version}: the date as the CFF schema's string`);
      assert.equal(cff['cff-version'], '1.2.0', version);
    }
  });

  it('DataCite JSON: the schema 4 fields, ORCID name identifiers and the publication as related identifier', () => {
    const json: any = JSON.parse(toDatacite(record()));
    assert.deepEqual(JSON.parse(toDatacite(record())), dataciteObject(record()));
    assert.deepEqual(json.identifiers, [{ identifier: 'https://doi.org/10.1234/cite.1', identifierType: 'DOI' }]);
    assert.equal(json.doi, '10.1234/cite.1');
    assert.deepEqual(json.titles, [{ title: TITLE }]);
    assert.equal(json.publisher, 'UVL Hub');
    assert.equal(json.publicationYear, '2024');
    assert.equal(json.types.resourceTypeGeneral, 'Dataset');
    assert.deepEqual(json.creators[0], {
      name: 'Müller-Åström, José {Jr}', nameType: 'Personal', givenName: 'José {Jr}', familyName: 'Müller-Åström',
      affiliation: [{ name: 'Universidad de Sevilla & "Lab" 100%' }],
      nameIdentifiers: [{ nameIdentifier: 'https://orcid.org/0000-0002-1825-0097', nameIdentifierScheme: 'ORCID', schemeUri: 'https://orcid.org' }],
    });
    assert.equal(json.creators[1].name, 'ACME & Co {x} 50%');
    assert.equal(json.creators[1].nameType, undefined, 'a one-part name is not claimed to be a person');
    assert.deepEqual(json.subjects, [{ subject: 'variability' }, { subject: 'product lines' }]);
    assert.equal(json.rightsList[0].rightsIdentifier, 'cc-by-4.0');
    assert.deepEqual(json.descriptions, [{ description: 'Described </script> & "quoted" {braces}', descriptionType: 'Abstract' }]);
    assert.deepEqual(json.relatedIdentifiers, [{ relatedIdentifier: '10.1000/paper.7', relatedIdentifierType: 'DOI', relationType: 'IsSupplementTo', resourceTypeGeneral: 'JournalArticle' }]);
    assert.equal('version' in json, false);
    const versioned = dataciteObject(record({ version: '2', conceptDoi: '10.1234/cite', publicationDoi: null }));
    assert.equal(versioned.version, '2');
    assert.deepEqual(versioned.relatedIdentifiers, [{ relatedIdentifier: '10.1234/cite', relatedIdentifierType: 'DOI', relationType: 'IsVersionOf' }]);
  });

  it('JSON-LD: a schema.org Dataset with its DOI, creators, licence and files', () => {
    const json = JSON.parse(toJsonLd(record()));
    assert.equal(json['@context'], 'https://schema.org');
    assert.equal(json['@type'], 'Dataset');
    assert.equal(json.identifier, 'https://doi.org/10.1234/cite.1');
    assert.equal(json.name, TITLE);
    assert.equal(json.creator[0]['@id'], 'https://orcid.org/0000-0002-1825-0097');
    assert.equal(json.creator[0].familyName, 'Müller-Åström');
    assert.equal(json.creator[1].name, 'ACME & Co {x} 50%');
    assert.equal(json.datePublished, '2024-03-05');
    assert.equal(json.license, 'https://creativecommons.org/licenses/by/4.0/legalcode');
    assert.ok(json.distribution.some((d: any) => d.contentUrl === 'http://hub.example/file/download/7'));
    assert.equal('version' in json, false);
  });

  it('the sources of imported models: DataCite IsDerivedFrom (DOI or URL), JSON-LD isBasedOn; nothing without sources', () => {
    const derivedFrom = [{ identifier: '10.5281/zenodo.7', scheme: 'doi' as const }, { identifier: 'https://git.example/a.zip?x=1&y=</script>', scheme: 'url' as const }];
    const datacite: any = dataciteObject(record({ publicationDoi: null, derivedFrom }));
    assert.deepEqual(datacite.relatedIdentifiers, [
      { relatedIdentifier: '10.5281/zenodo.7', relatedIdentifierType: 'DOI', relationType: 'IsDerivedFrom' },
      { relatedIdentifier: 'https://git.example/a.zip?x=1&y=</script>', relatedIdentifierType: 'URL', relationType: 'IsDerivedFrom' },
    ]);
    const jsonLd = JSON.parse(toJsonLd(record({ derivedFrom })));
    assert.deepEqual(jsonLd.isBasedOn, ['https://doi.org/10.5281/zenodo.7', 'https://git.example/a.zip?x=1&y=</script>']);
    assert.doesNotMatch(jsonLdForHtml(record({ derivedFrom })), /<\/script>/i, 'a source cannot close the script element');
    assert.deepEqual(dataciteObject(record({ publicationDoi: null })).relatedIdentifiers, []);
    assert.equal('isBasedOn' in jsonLdObject(record()), false);
  });

  it('JSON-LD for an HTML script element: no text can close the element, and it is still the same JSON', () => {
    const embedded = jsonLdForHtml(record());
    assert.doesNotMatch(embedded, /[<>&]/);
    assert.deepEqual(JSON.parse(embedded), jsonLdObject(record()));
    assert.equal(JSON.parse(embedded).name, TITLE);
  });

  it('the APA-style text names the authors, year, title and DOI', () => {
    const text = toApaText(record());
    assert.match(text, /Müller-Åström, J\./);
    assert.match(text, /\(2024\)/);
    assert.ok(text.includes('Modèles'));
    assert.match(text, /https:\/\/doi\.org\/10\.1234\/cite\.1/);
  });

  it('the format table: six formats, each with a media type, a file name and a body naming the DOI', () => {
    assert.deepEqual(CITATION_FORMATS.map((f) => f.format), ['bibtex', 'ris', 'csl', 'cff', 'datacite', 'jsonld']);
    for (const f of CITATION_FORMATS) {
      assert.ok(f.build(record()).includes('10.1234/cite.1'), f.format);
      assert.match(f.fileName(record()), /^[A-Za-z0-9._-]+$/);
    }
    assert.equal(formatInfo('cff')!.fileName(record()), 'CITATION.cff');
    assert.equal(formatInfo('pdf'), undefined);
  });
});

describe('citation HTTP helpers', () => {
  it('Accept: a range naming the charset the answers have (utf-8) is the same type; another charset is not', () => {
    assert.equal(negotiateFormat('application/x-bibtex; charset=utf-8'), 'bibtex');
    assert.equal(negotiateFormat('application/x-research-info-systems;charset=UTF-8'), 'ris');
    assert.equal(negotiateFormat('application/ld+json; charset="utf-8"'), 'jsonld');
    assert.equal(negotiateFormat('text/html;q=0.5, application/vnd.citationstyles.csl+json; charset=utf-8'), 'csl');
    assert.equal(negotiateFormat('application/x-bibtex; charset=iso-8859-1'), null);
    assert.equal(negotiateFormat('text/html; charset=utf-8, application/x-bibtex;q=0.5'), null);
  });

  it('Accept: HTML stays the default; a citation type preferred over HTML wins', () => {
    assert.equal(negotiateFormat(undefined), null);
    assert.equal(negotiateFormat('*/*'), null);
    assert.equal(negotiateFormat('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), null);
    assert.equal(negotiateFormat('application/json'), null);
    assert.equal(negotiateFormat('image/png'), null);
    assert.equal(negotiateFormat('application/x-bibtex'), 'bibtex');
    assert.equal(negotiateFormat('application/x-research-info-systems'), 'ris');
    assert.equal(negotiateFormat('application/vnd.citationstyles.csl+json'), 'csl');
    assert.equal(negotiateFormat('application/ld+json'), 'jsonld');
    assert.equal(negotiateFormat('application/vnd.datacite.datacite+json'), 'datacite');
    assert.equal(negotiateFormat('text/html;q=0.5, application/x-bibtex'), 'bibtex');
    assert.equal(negotiateFormat('application/x-bibtex;q=0.5, text/html'), null);
    assert.equal(negotiateFormat('application/x-bibtex;q=0'), null);
    assert.equal(negotiateFormat('application/ld+json, */*;q=0.1'), 'jsonld');
  });

  it('reads <doi>/export/<format> from the DOI route wildcard, slashes in the DOI included', () => {
    assert.deepEqual(exportPathOf('10.1234/dataset1/export/bibtex'), { doi: '10.1234/dataset1', format: 'bibtex' });
    assert.deepEqual(exportPathOf('10.1093/nar/gkaa1100/export/ris'), { doi: '10.1093/nar/gkaa1100', format: 'ris' });
    assert.equal(exportPathOf('10.1234/dataset1/'), null);
    assert.equal(exportPathOf('10.1234/dataset1/export/bibtex/'), null);
    assert.equal(exportPathOf('export/bibtex'), null);
  });

  it('signposting: cite-as, one describedby per format, items, ORCID authors and the licence', () => {
    const links = signpostingLinks(record({ license: 'MIT' }));
    assert.ok(links.includes('<https://doi.org/10.1234/cite.1>; rel="cite-as"'));
    for (const f of CITATION_FORMATS) {
      assert.ok(links.includes(`<http://hub.example/doi/10.1234/cite.1/export/${f.format}>; rel="describedby"; type="${f.mediaType}"`), f.format);
    }
    assert.ok(links.includes('<http://hub.example/file/download/7>; rel="item"; type="application/octet-stream"'));
    assert.ok(links.includes('<https://orcid.org/0000-0002-1825-0097>; rel="author"'));
    assert.equal(links.match(/rel="author"/g)!.length, 1, 'only authors with an ORCID');
    assert.ok(links.includes('<https://opensource.org/licenses/MIT>; rel="license"'));
    const many = record({ files: Array.from({ length: 120 }, (_, i) => ({ name: `m${i}.uvl`, url: `http://hub.example/file/download/${i + 1}`, size: 1 })) });
    assert.equal(signpostingLinks(many).match(/rel="item"/g)!.length, MAX_ITEM_LINKS + 1, 'the zip and the first files');
  });
});

describe('the APA-style line', () => {
  const base = record();
  it('lists one, two or more authors with initials, and a dataset without authors by its title', () => {
    const one = toApaText({ ...base, authors: [{ name: 'García, Jean-Paul María', affiliation: null, orcid: null }] });
    assert.equal(one, `García, J.-P. M. (2024). ${TITLE} [Data set]. UVL Hub. https://doi.org/10.1234/cite.1`);
    const two = toApaText({ ...base, authors: base.authors.slice(0, 2), version: '2' });
    assert.equal(two, `Müller-Åström, J. J., & ACME & Co {x} 50%. (2024). ${TITLE} (Version 2) [Data set]. UVL Hub. https://doi.org/10.1234/cite.1`);
    assert.match(toApaText(base), /^Müller-Åström, J\. J\., ACME & Co \{x\} 50%, & O'Brien, S\. \(2024\)/);
    assert.equal(toApaText({ ...base, authors: [] }), `${TITLE} [Data set]. (2024). UVL Hub. https://doi.org/10.1234/cite.1`);
  });
});
