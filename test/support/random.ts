// Deterministic pseudo-random numbers for generated test and benchmark data, so a failure or a
// run can be reproduced: mulberry32, 32-bit integer arithmetic with a period of 2^32. (An LCG
// in plain JS numbers multiplies past 2^53, loses bits and repeats after a few thousand values.)
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
