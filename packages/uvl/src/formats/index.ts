// Other model formats: readers to UVL (FeatureIDE XML, SPLOT SXFM, Glencoe JSON), the FeatureIDE writer, and readModelFile.
export { readFeatureIde } from './featureide-read.ts';
export { featureIdeFeatureCount } from './featureide-count.ts';
export { readSxfm } from './sxfm-read.ts';
export { readGlencoe } from './glencoe-read.ts';
export { toFeatureIde, type FeatureIdeResult } from './featureide-write.ts';
export { readModelFile, detectFormat, decodeModelBytes, type ModelFormat, type ModelFileResult } from './read-model-file.ts';
export type { FormatReadResult } from './imported.ts';
