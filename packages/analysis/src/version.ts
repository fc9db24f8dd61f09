// The engine's version, cited with every sample: the same model bytes, decisions, sample size,
// seed and engine version give the same sample (extensions section 6). Raise it whenever a
// change to the engine may change a sample or a t-wise result.
// 1.1.0: a wide model's narrow components are TABLE nodes (compile/narrow-leaf.ts), drawn in
// their own way: fm3.uvl's uniform samples differ from 1.0.0's for the same seed.
export const ENGINE_VERSION = '1.1.0';
