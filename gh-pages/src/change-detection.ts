// The change-point detection the site uses is the harness's (also run at publish for regressions.json).
export {
  detectChangePoints,
  MIN_SEGMENT,
  MIN_SHIFT,
} from '../../harness/src/analysis/changepoints.js';
