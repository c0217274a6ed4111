// The part of jstat (which ships no types) that the comparison uses.
declare module 'jstat' {
  const jstat: {
    jStat: {
      chisquare: { cdf(x: number, dof: number): number };
    };
  };
  export default jstat;
}
