// The change-point detection the site uses is the harness's (also run at publish for regressions.json).
export {
  type ChangePoint,
  detectChangePoints,
  MIN_SEGMENT,
  MIN_SHIFT,
  NOISE_FACTOR,
  noiseOf,
} from '../../harness/src/analysis/changepoints.js';
