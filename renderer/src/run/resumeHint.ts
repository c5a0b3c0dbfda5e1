/** What resuming a run promises (README, "What resume and fork promise"): a one-line hint. */
export const RESUME_HINT =
  'Resumes from the last snapshot. Re-running the logged steps is exact; steps after the end ' +
  "of the log are new and, on llama.cpp, may differ from an uninterrupted run (the model's " +
  'cache state differs).';
