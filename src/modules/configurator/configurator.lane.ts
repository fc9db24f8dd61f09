// Which lane of the scheduler a model's jobs take: small models (at most SMALL_MODEL_FEATURES
// features) have seats of their own. The number is counted from the text without parsing it (the
// main thread must not parse a large model): the lines of the `features` section that name a
// feature, i.e. not a group keyword, a comment or an empty line. Imported files add theirs.
import { SMALL_MODEL_FEATURES, type Lane } from '../../core/scheduler/index.ts';

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

export function laneOf(features: number): Lane {
  return features <= SMALL_MODEL_FEATURES ? 'small' : 'large';
}
