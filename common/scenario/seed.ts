/**
 * The persona seed paragraph: each semicolon-separated clause becomes one of the persona's
 * first memories (Park et al. 2023, §3.1 "seed memories").
 */
export function seedClauses(seed: string): string[] {
  return seed
    .split(';')
    .map((clause) => clause.trim().replace(/\s+/g, ' '))
    .filter((clause) => clause.length > 0);
}
