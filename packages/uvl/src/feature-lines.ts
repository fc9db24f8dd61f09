// About the number of features of a UVL text without parsing it (the hub's serving thread must
// not parse a large model, yet it picks the scheduler's lane by size): the lines of the `features`
// section that name a feature, i.e. not a group keyword, a comment or an empty line.

const GROUP_LINE = /^(mandatory|optional|alternative|or|\[\s*\d+\s*(\.\.\s*(\d+|\*)\s*)?\])\s*$/;
const SECTION = /^(features|constraints|imports|include|namespace)\b/;

/** About the number of features declared in a UVL text (exact for one feature a line, as UVL is written). */
export function featureEstimate(text: string): number {
  let inFeatures = false;
  let count = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const section = SECTION.exec(raw);
    if (section) {
      inFeatures = section[1] === 'features';
      continue;
    }
    if (!inFeatures || line === '' || line.startsWith('//') || GROUP_LINE.test(line)) continue;
    count++;
  }
  return count;
}
