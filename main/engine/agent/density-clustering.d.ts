/** Types for the parts of `density-clustering` (MIT, no dependencies) the engine uses. */
declare module 'density-clustering' {
  export class DBSCAN {
    /** Clusters as lists of dataset indices; `noise` holds the indices in no cluster. */
    run<T>(
      dataset: readonly T[],
      epsilon: number,
      minPts: number,
      distance?: (a: T, b: T) => number,
    ): number[][];
    noise: number[];
  }
}
