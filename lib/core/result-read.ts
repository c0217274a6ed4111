/**
 * How an analysis reads a call's result text: exactly (true), not at all
 * (false), or as bytes ('bytes': it looks only for ASCII patterns, such as a
 * listing's paths, and decodes what it keeps; see `tool_result.bytes`).
 */
export type ResultRead = boolean | 'bytes';
