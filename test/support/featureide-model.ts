// A generated FeatureIDE model of any size, for the noisy-neighbour test and bench (a 25 MB file
// with 10^6 features is the case): a root with groups of 1,000 optional features each.
export function featureIdeXml(features: number): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<featureModel>\n\t<struct>\n\t\t<and abstract="true" mandatory="true" name="Root">\n'];
  const groups = Math.ceil(features / 1000);
  let made = 0;
  for (let g = 0; g < groups; g++) {
    parts.push(`\t\t\t<and name="G${g}">\n`);
    for (let i = 0; i < 1000 && made < features; i++, made++) parts.push(`<feature name="F${made}"/>\n`);
    parts.push('\t\t\t</and>\n');
  }
  parts.push('\t\t</and>\n\t</struct>\n</featureModel>\n');
  return parts.join('');
}
