// A verifier's reward (a Harbor trial's, from 0 to 1, fractional for partial
// credit) counts as delivered from this value unless the config says
// otherwise (`reward_threshold`): Harbor's own pass@k counts a trial as
// solved only at 1.
export const DEFAULT_REWARD_THRESHOLD = 1;
