// The engine's version, cited with every sample: the same model bytes, decisions, sample size,
// seed and engine version give the same sample (extensions section 6). Raise it whenever a
// change to the engine may change a sample or a t-wise result.
export const ENGINE_VERSION = '1.0.0';
