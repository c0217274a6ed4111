// The seed's default-deny layer: every tool (or Bash class) whose blast is
// external_side_effect or irreversible and that no eval covers is denied in
// a Claude Code settings fragment, to merge into `.claude/settings.json`.
// Covered tools stay allowed: an eval is what earns a dangerous tool its use.
// Rules are written as Claude Code writes them today (`Bash(git push *)`,
// not the legacy `git push:*`; `Agent`, which also names its old `Task`), and
// a rule a broader one already covers is left out (`Bash(git push *)` covers
// `Bash(git push --force *)`).
import { z } from 'zod';
import { canonicalToolName } from '../../core/tools.js';
import { BLASTS, isDangerous, effectiveBlast } from './blast.js';
import type { Graph } from './document.js';
import { BASH_PREFIX, isPseudo } from './nodes.js';
import { BASH_DENY_RULES } from './bash-class.js';
import { withoutCovered } from '../../permissions/rules.js';

export const policySchema = z.object({
  /** The fragment itself: plain rule strings, as Claude Code expects. */
  settings: z.object({ permissions: z.object({ deny: z.array(z.string()) }) }),
  rules: z.array(z.object({ rule: z.string(), tool: z.string(), blast: z.enum(BLASTS), reason: z.string() })),
});

export type Policy = z.infer<typeof policySchema>;

export function policy(graph: Graph): Policy {
  const rules: Policy['rules'] = [];
  for (const n of graph.nodes) {
    if (isPseudo(n.name) || n.evalCount > 0 || !isDangerous(n.blast)) continue;
    const seen = n.prodCount > 0 ? `called ${n.prodCount}× in production` : 'never called';
    const reason = `${n.blast} (${n.blastSource}), ${seen}, no eval covers it`;
    if (n.name.startsWith(BASH_PREFIX)) {
      // The class the node stands for, even when the config relabelled its blast.
      const own = n.name.slice(BASH_PREFIX.length);
      const cls = (Object.hasOwn(BASH_DENY_RULES, own) ? own : effectiveBlast(n.blast)) as keyof typeof BASH_DENY_RULES;
      for (const rule of BASH_DENY_RULES[cls]) rules.push({ rule, tool: n.name, blast: n.blast, reason });
    } else {
      // A renamed tool under its current name: Claude Code reads the old one as its alias.
      rules.push({ rule: canonicalToolName(n.name), tool: n.name, blast: n.blast, reason });
    }
  }
  // One rule once, even if two classes list it, and none a broader one covers.
  const deny = withoutCovered([...new Set(rules.map((r) => r.rule))]);
  const kept = new Set(deny);
  return { settings: { permissions: { deny } }, rules: rules.filter((r) => kept.has(r.rule)) };
}
