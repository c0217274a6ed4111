// The `sufficiency:` namespace of agent-eval.yaml.
import { z } from 'zod';
import { regexSource } from '../../core/regex-source.js';

export const sufficiencyConfig = {
  sufficiency: z
    .strictObject({
      /** A call whose tool name matches is a probe. */
      probe: regexSource.optional(),
      /** A next call of a matching tool is `explore again`. */
      family: regexSource.optional(),
      /** Its first group is a returned file's path (multiline). */
      marker: regexSource.optional(),
    })
    .optional(),
};

export type SufficiencyConfig = z.infer<z.ZodObject<typeof sufficiencyConfig>>;
