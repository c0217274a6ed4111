// The `sufficiency:` namespace of agent-eval.yaml.
import { z } from 'zod';
import { regexSource } from '../../core/regex-source.js';
import { toolPatternSchema } from '../../permissions/pattern-syntax.js';
import { PROFILE_NAMES } from './profiles.js';

/** One probe tool: a permission-rule tool pattern and the profile that reads it. */
const probeConfig = z.strictObject({
  tool: toolPatternSchema,
  profile: z.enum(PROFILE_NAMES),
  /** `json`: the input field that is the query (default `query`). */
  query: z.string().min(1).optional(),
  /** `json`: keys of the response whose string values it returned. */
  keys: z.array(z.string().min(1)).optional(),
  /** A next call matching this tool pattern is `explore again` (default: the probe's own). */
  family: toolPatternSchema.optional(),
});

export const sufficiencyConfig = {
  sufficiency: z
    .strictObject({
      /** A call whose tool name matches is a probe. */
      probe: regexSource.optional(),
      /** A next call of a matching tool is `explore again`. */
      family: regexSource.optional(),
      /** Its first group is a returned file's path (multiline). */
      marker: regexSource.optional(),
      /** The probe tools, each with its profile (instead of `probe`; without either, every built-in profile). */
      probes: z.array(probeConfig).min(1).optional(),
    })
    .optional(),
};

export type SufficiencyConfig = z.infer<z.ZodObject<typeof sufficiencyConfig>>;
